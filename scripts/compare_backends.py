#!/usr/bin/env python3
"""Compares the verdicts and signatures of the same contracts on several backends
(docs/backends.md, "Backends must agree").

    compare_backends.py RESULTS.jsonl...

Each file holds the JSON Lines of `kcontract check ... --format jsonl`. A case is keyed by
its contract, the kernel's name with the backend's suffix removed (softmax_cl.c and
softmax.cu are the twins of softmax.c), and its case number. Cases SKIPPED on a backend
(not built, no device) are not compared. Prints one line per kernel and backend pair and
every disagreement; exits 1 when any case disagrees, 0 otherwise."""
import json
import os
import re
import sys
from collections import defaultdict


def twin(kernel):
    path = kernel.rsplit(":", 1)[0]
    stem = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"_(cl|cuda|torch)$", "", stem)


def main():
    results = defaultdict(dict)  # (contract, twin, case) -> backend -> (verdict, signatures)
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                if "verdict" not in r or "case" not in r:
                    continue
                key = (r["contract"], twin(r["kernel"]), r["number"])
                results[key][r["backend"]] = (r["verdict"], tuple(sorted(r.get("signatures", []))))
    pairs = defaultdict(lambda: [0, 0, 0])  # (contract, twin, a, b) -> compared, agree, skipped
    bad = []
    for (contract, kernel, number), by in sorted(results.items()):
        names = sorted(by)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                p = pairs[(contract, kernel, a, b)]
                if by[a][0] == "SKIPPED" or by[b][0] == "SKIPPED":
                    p[2] += 1
                    continue
                p[0] += 1
                if by[a] == by[b]:
                    p[1] += 1
                else:
                    bad.append(f"  {contract} {kernel} case {number}: {a} {by[a][0]} {list(by[a][1])}, "
                               f"{b} {by[b][0]} {list(by[b][1])}")
    for (contract, kernel, a, b), (compared, agree, skipped) in sorted(pairs.items()):
        extra = f", {skipped} skipped" if skipped else ""
        print(f"{contract:22} {kernel:18} {a} vs {b}: {agree} of {compared} cases agree{extra}")
    if bad:
        print("disagreements:")
        print("\n".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
