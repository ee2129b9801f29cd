# Checks an HTML report (docs/checking.md, "The HTML report") in headless Chromium, installed
# by scripts/setup.sh: the page is self-contained; the DOM after its script ran, opened
# filtered to FAIL k-tail cases, holds the expected rows; a screenshot shows the verdict
# colours. The screenshot is kept as kc-html-report.png in $TMPDIR (or /tmp) to look at.
#   check_page.sh REPORT.html   (run by tests/e2e/check_examples.sh on examples/suite.yaml's report)
HERE="$(cd "$(dirname "$0")" && pwd)"
[ "$1" -ef "$WORK/report.html" ] || cp "$1" "$WORK/report.html"
cd "$WORK"
python3 - <<'PY'
import re
page = open("report.html", encoding="utf-8").read()
# Self-contained: nothing fetched (no src, no link, no url(), no @import), anchors only within the page.
outside = re.findall(r'<link\b|\bsrc\s*=|url\(|@import|href="(?!#)', page)
print("references outside the page:", len(outside))
print("scripts:", page.count("<script"), "style sheets:", page.count("<style"))
PY
browser() { timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars "$@" 2>/dev/null; }
browser --dump-dom "file://$WORK/report.html#verdict=FAIL&signature=k-tail" > dom.html
echo "chromium exit $?"
python3 - <<'PY'
from html.parser import HTMLParser

class Dom(HTMLParser):
    """The verdict table's rows (hidden or not), the jobs' headings, the SVG shapes, the failures."""
    def __init__(self):
        super().__init__()
        self.rows, self.row, self.cell, self.stack = [], None, None, []
        self.jobs, self.heading, self.shown, self.in_shown = [], None, "", False
        self.count = {"map squares": 0, "ratio points": 0, "failures": 0, "open failures": 0, "replay lines": 0}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-verdict" in a:
            self.row = {"hidden": "hidden" in a, "cells": []}
        elif tag == "td" and self.row is not None:
            self.cell = ""
        elif tag == "h3":
            self.heading = ""
        elif tag == "rect" and a.get("class") == "cell":
            self.count["map squares"] += 1
        elif a.get("class") == "point":
            self.count["ratio points"] += 1
        elif tag == "details":
            self.count["failures"] += 1
            self.count["open failures"] += "open" in a
        elif tag == "pre" and a.get("class") == "repro":
            self.count["replay lines"] += 1
        self.in_shown = a.get("id") == "shown"
    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row["cells"].append(self.cell.strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None
        elif tag == "h3":
            self.jobs.append(" ".join(self.heading.split()))
            self.heading = None
    def handle_data(self, data):
        if self.cell is not None: self.cell += data
        if self.heading is not None: self.heading += data
        if self.in_shown: self.shown += data

dom = Dom()
dom.feed(open("dom.html", encoding="utf-8").read())
print("rows:", len(dom.rows), "; shown:", dom.shown.strip())
for row in dom.rows:
    if not row["hidden"]:
        kernel, backend, case, verdict, signatures = row["cells"][:5]
        print(f"  {verdict:5} {case:22} {signatures:8} {kernel}")
print("kernels:", len(dom.jobs))
for job in dom.jobs:
    print("  " + job)
for name, n in dom.count.items():
    print(f"{name}: {n}")
PY
browser --window-size=1300,1800 --screenshot="$WORK/shot.png" "file://$WORK/report.html#verdict=FAIL"
echo "chromium exit $?"
python3 "$HERE/png_summary.py" shot.png
cp shot.png "${TMPDIR:-/tmp}/kc-html-report.png"
