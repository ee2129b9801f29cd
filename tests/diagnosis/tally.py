#!/usr/bin/env python3
"""Tally a diagnosis-corpus run (tests/diagnosis/README.md).

    tally.py SUITE.yaml CHECK_OUTPUT.txt [--known FILE]

CHECK_OUTPUT is what `kcontract check SUITE.yaml --expect` printed. Its `expectations:`
block says, per suite entry, the verdict and signatures the checker gave; this script sorts
each buggy entry (expect: fail with a signature) into

  named right   FAIL (or CRASH), and the primary cause (the first signature) is the label
  named wrong   FAIL, and the primary cause is another name
  unclassified  FAIL or CRASH with `unclassified`, or TIMEOUT (caught, no cause named)
  missed        PASS (or SKIPPED): the bug went through

and each twin (expect: pass) into passes / does not pass. It prints one line per entry and
the tally, and exits 1 on any named-wrong or missed kernel not in the known list, any known
entry whose outcome changed (the list must stay true: take it off, or say what it is now),
or any twin that does not pass.

The known list holds one line per kernel the checker does not get right today, with why:

    NAME: missed: WHY               a blind spot of the standard contracts
    NAME: named SIGNATURE: WHY      caught, primary cause SIGNATURE, not the label
"""
import re
import sys

import yaml


def load_known(path):
    """{name: (outcome, why)}: outcome is "missed" or the signature it is named."""
    known = {}
    if not path:
        return known
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^([^:]+?): (missed|named ([\w.-]+)): (.+)$", line)
        if not m:
            sys.exit(f"{path}:{n}: expected `NAME: missed: WHY` or `NAME: named SIGNATURE: WHY`")
        known[m.group(1)] = (m.group(3) or "missed", m.group(4))
    return known


def main(argv):
    args = argv[1:]
    known_path = None
    if "--known" in args:
        i = args.index("--known")
        known_path = args[i + 1]
        del args[i : i + 2]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    suite = yaml.safe_load(open(args[0], encoding="utf-8"))
    text = open(args[1], encoding="utf-8").read()
    known = load_known(known_path)

    # "  as expected: NAME (expected fail with L, got fail with A, B)"
    line_re = re.compile(r"^  (?:NOT )?as expected: (.*) \(expected (.*?), got (\w+)(?: with (.*))?\)$")
    got = {}
    for line in text.splitlines():
        m = line_re.match(line)
        if m:
            got.setdefault(m.group(1), []).append((m.group(3), [s.strip() for s in (m.group(4) or "").split(",") if s.strip()]))

    if not got:
        print(f"{args[1]}: no `expectations:` block (was it `kcontract check SUITE --expect`, run to the end?)")
        return 2

    counts = {"right": 0, "wrong": 0, "unclassified": 0, "missed": 0}
    listed = {"missed": 0, "wrong": 0}
    twins = {"pass": 0, "not": 0}
    failures = []
    seen = {}
    for entry in suite["kernels"]:
        name = entry["name"]
        expect = entry.get("expect")
        # An entry's line is "NAME", "NAME (op)" or "NAME (op) (classes added)": the n-th
        # entry of a name takes the n-th such line.
        cands = [k for k in got if k == name or k.startswith(name + " (")]
        n = seen.get(name, 0)
        seen[name] = n + 1
        runs = got.get(cands[n]) if n < len(cands) else None
        if not runs:
            failures.append(f"{name}: no result in the check output")
            print(f"  {'NO RESULT':20} {name}")
            continue
        verdict, sigs = runs[0]
        if expect == "pass":
            ok = verdict == "pass"
            twins["pass" if ok else "not"] += 1
            print(f"  {'twin passes' if ok else 'TWIN FAILS':20} {name} ({entry['op']})" + ("" if ok else f": {verdict} {', '.join(sigs)}"))
            if not ok:
                failures.append(f"{name}: a conforming twin got {verdict}")
            continue
        label = expect["signature"]
        primary = sigs[0] if sigs else ""
        if verdict in ("pass", "skipped"):
            counts["missed"] += 1
            kind, now = "missed", "missed"
        elif verdict in ("fail", "crash") and primary == label:
            counts["right"] += 1
            kind, now = "named right", None
        elif verdict != "fail" or primary in ("", "unclassified"):
            counts["unclassified"] += 1
            kind, now = "unclassified" + ("" if verdict == "fail" else f" ({verdict})"), None
        else:
            counts["wrong"] += 1
            kind, now = "named wrong", primary
        was = known.get(name, (None, ""))[0]
        if now is not None and was == now:
            listed["missed" if now == "missed" else "wrong"] += 1
            kind += " (known)"
        elif now is not None:
            failures.append(f"{name}: {'missed (' + verdict + ')' if now == 'missed' else 'named ' + now + ', labelled ' + label}")
            kind = kind.upper()
        if was is not None and was != now:
            failures.append(f"{name}: listed as known {'missed' if was == 'missed' else 'named ' + was}, "
                            f"but {kind.split(' (')[0]} now: update the known list")
        print(f"  {kind:20} {name} [{label}]" + (f": {', '.join(sigs)}" if sigs and kind != "named right" else ""))

    buggy = sum(counts.values())
    caught = counts["right"] + counts["wrong"] + counts["unclassified"]
    print(f"buggy {buggy}: caught {caught}, named right {counts['right']}, named wrong {counts['wrong']}, "
          f"unclassified {counts['unclassified']}, missed {counts['missed']} "
          f"(known: {listed['wrong']} named wrong, {listed['missed']} missed)")
    print(f"twins {twins['pass'] + twins['not']}: pass {twins['pass']}, do not pass {twins['not']}")
    for f in failures:
        print(f"FAILED: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
