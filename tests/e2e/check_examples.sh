# The README's main job: every example kernel against its contract on the host. The correct
# kernels PASS; each buggy one FAILs with the signature its contract names (--expect: exit 0).
# The same run writes the HTML report, which html/check_page.sh renders in headless Chromium.
kc check ../../examples/suite.yaml --expect --format html --out "$WORK/report.html" | sed -n '/^kernel /,$p'
bash html/check_page.sh "$WORK/report.html"
