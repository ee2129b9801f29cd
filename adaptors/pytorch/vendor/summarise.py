#!/usr/bin/env python3
"""One line per op and dtype from kcontract's JSON Lines results (`check --format jsonl`):

    summarise.py RESULTS.jsonl...

The op is the contract's name (std.op.NAME@V without its prefix and version), the dtype the
case's T ("-" where the contract has no dtype variable T, as int8_gemm; embedding's index
dtype I is counted within T). The verdict of
a line is a suite's (docs/checking.md, "Suites"): FAIL when a case FAILed, else CRASH,
TIMEOUT or ERROR when one did, else PASS when one passed, else MISTRUSTED, else SKIPPED.
Each non-PASS case follows on its own line with its id, the first and last lines of its reason
(for an adaptor's failure: what happened, and the last line of its stderr) and its signatures."""
import collections
import json
import sys

ORDER = ["FAIL", "CRASH", "TIMEOUT", "ERROR", "PASS", "MISTRUSTED", "SKIPPED"]
DTYPES = {"f16": 0, "bf16": 1, "f32": 2}


def main(paths):
    groups = collections.OrderedDict()
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                if "case" not in r:
                    continue
                op = r["contract"].split("@")[0].removeprefix("std.op.")
                dtype = r.get("dtypes", {}).get("T", "-")
                groups.setdefault((op, dtype), []).append(r)
    for (op, dtype) in sorted(groups, key=lambda k: (list(dict.fromkeys(o for o, _ in groups)).index(k[0]), DTYPES.get(k[1], 3))):
        cases = groups[(op, dtype)]
        counts = collections.Counter(c["verdict"] for c in cases)
        verdict = next(v for v in ORDER if counts[v])
        sigs = sorted({s for c in cases for s in c.get("signatures", [])})
        tally = ", ".join(f"{counts[v]} {v}" for v in ORDER if counts[v])
        print(f"{op:17} {dtype:5} {verdict:10} {len(cases):3} case(s): {tally}" + (f"  [{', '.join(sigs)}]" if sigs else ""))
        for c in cases:
            if c["verdict"] != "PASS":
                lines = [x.strip(" |") for x in c.get("reason", "").splitlines() if x.strip(" |")]
                reason = " ... ".join(lines[:1] + lines[-1:] if len(lines) > 1 else lines)
                print(f"    {c['case']} {c['verdict']}: {reason}" +
                      (f" [{', '.join(c['signatures'])}]" if c.get("signatures") else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
