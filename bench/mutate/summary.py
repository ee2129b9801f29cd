#!/usr/bin/env python3
"""The table of bench/README.md from the JSON reports of bench/mutate/run_ops.sh: per op the
mutants, those set aside (not built, equivalent), the contract's kills, the naming and the
allclose baseline's kills; then the totals and the per-family breakdown over every op; then
every surviving mutant. Usage: summary.py OUT_DIR"""
import glob
import json
import os
import sys


def pct(a, b):
    return f"{a}/{b} ({100.0 * a / b:.1f}%)" if b else f"{a}/{b}"


def main():
    out = sys.argv[1]
    reports = []
    for path in sorted(glob.glob(os.path.join(out, "*.json"))):
        with open(path) as f:
            reports.append((os.path.basename(path)[:-5], json.load(f)))
    print("| op | mutants | not built | equivalent | contract kills | named | allclose kills | original |")
    print("|---|---|---|---|---|---|---|---|")
    fam = {}
    total = dict(mutants=0, not_built=0, equivalent=0, scored=0, killed=0, named=0, allclose_killed=0)
    survivors = []
    for op, r in reports:
        t = r["families"][-1]
        orig = r["original"]
        ok = "0 kills in %d cases" % orig["cases"] if orig["kills"] == 0 else "FAILS: " + orig["failure"]
        print(f"| {op} | {t['mutants']} | {t['not_built']} | {t['equivalent']} | {pct(t['killed'], t['scored'])} | "
              f"{pct(t['named'], t['killed'])} | {pct(t['allclose_killed'], t['scored'])} | {ok} |")
        for k in total:
            total[k] += t[k]
        for f in r["families"][:-1]:
            acc = fam.setdefault(f["family"], dict.fromkeys(total, 0))
            for k in acc:
                acc[k] += f[k]
        for m in r["mutants"]:
            if m.get("outcome") == "survived":
                survivors.append((op, m))
    print(f"| **all** | {total['mutants']} | {total['not_built']} | {total['equivalent']} | "
          f"{pct(total['killed'], total['scored'])} | {pct(total['named'], total['killed'])} | "
          f"{pct(total['allclose_killed'], total['scored'])} | |")
    print()
    print("| family | mutants | not built | equivalent | contract kills | named | allclose kills |")
    print("|---|---|---|---|---|---|---|")
    for name, f in fam.items():
        print(f"| {name} | {f['mutants']} | {f['not_built']} | {f['equivalent']} | {pct(f['killed'], f['scored'])} | "
              f"{pct(f['named'], f['killed'])} | {pct(f['allclose_killed'], f['scored'])} |")
    print()
    print(f"surviving mutants: {len(survivors)}")
    for op, m in survivors:
        s = m.get("suggestion")
        hint = ""
        if s is not None:
            hint = f"; suggested: `{s['change']}` ({s['killed_by']})" if s["change"] else f"; no suggestion ({s['tried']} changes tried)"
        print(f"- {op} {m['id']} ({m['family']}, in {m['function']}): {m['description']}{hint}")


if __name__ == "__main__":
    sys.exit(main())
