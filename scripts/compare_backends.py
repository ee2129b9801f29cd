#!/usr/bin/env python3
"""Compares the verdicts and signatures of the same contracts on several backends
(docs/backends.md, "Backends must agree").

    compare_backends.py [--order-dependent TWIN]... RESULTS.jsonl...

Each file holds the JSON Lines of `kcontract check ... --format jsonl`. A case is keyed by
its contract, the kernel's name with the backend's suffix removed (softmax_cl.c and
softmax.cu are the twins of softmax.c), and its case number. Cases SKIPPED on a backend
(not built, no device) are not compared. Prints one line per kernel and backend pair and
every disagreement; exits 1 when any case disagrees, 0 otherwise.

--order-dependent TWIN names a buggy kernel whose verdict on borderline cases depends on
the order (and fusion) of its floating-point operations, which differ between backends by
design: layernorm_one_pass's f32 E[x^2] - mean^2 is summed in sequence on the host and in a
tree on the GPU, and on rows with |mean| near 100 sd the two land on either side of the
tolerance. Its PASS-vs-FAIL disagreements are printed but not counted; any other
disagreement (ERROR, CRASH, TIMEOUT, MISTRUSTED on one side) still is."""
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
    args, order_dependent = sys.argv[1:], set()
    while args and args[0] == "--order-dependent" and len(args) > 1:
        order_dependent.add(args[1])
        args = args[2:]
    results = defaultdict(dict)  # (contract, twin, case) -> backend -> (verdict, signatures)
    for path in args:
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
    bad, tolerated = [], []
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
                    line = (f"  {contract} {kernel} case {number}: {a} {by[a][0]} {list(by[a][1])}, "
                            f"{b} {by[b][0]} {list(by[b][1])}")
                    flip = {by[a][0], by[b][0]} <= {"PASS", "FAIL"}
                    (tolerated if kernel in order_dependent and flip else bad).append(line)
    for (contract, kernel, a, b), (compared, agree, skipped) in sorted(pairs.items()):
        extra = f", {skipped} skipped" if skipped else ""
        print(f"{contract:22} {kernel:18} {a} vs {b}: {agree} of {compared} cases agree{extra}")
    if tolerated:
        print("order-dependent disagreements (not counted):")
        print("\n".join(tolerated))
    if bad:
        print("disagreements:")
        print("\n".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
