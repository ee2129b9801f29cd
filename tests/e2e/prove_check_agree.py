#!/usr/bin/env python3
"""The prove/check differential (issue 17, "prove and check agree"): for every standard op's
reference kernel and every calibration kernel that must pass, `kcontract prove` says a
correct implementation passes (its blind-band-correct obligation: ok) exactly when
`kcontract check` passes that kernel.

The pairs come from the manifests, not from a list here:
  - every op of stdlib/ops/*.kcontract, checked with `--op NAME` against the kernel of
    stdlib/ops/kernels/*.c that defines kc_NAME (every contract of the op: @1, @2, ...);
  - every host calibration pair ("classes") of contracts/calibration.yaml: its conforming
    kernel against its contract (the "ops" pairs' conforming kernels are the reference
    kernels above);
  - every `expect: pass` entry of a suite manifest, if one is given, against its contract.
CUDA pairs are listed, not run (scripts/gpu_check.sh runs them on a GPU).

One line per (kernel, contract): prove's verdict, check's, and `agree`, `DISAGREE` or
`undecided` (prove timed out, answered unknown or could not build the obligation; check
only skipped): undecided is never counted as agreement. Exit 1 on any disagreement.
  prove_check_agree.py KCONTRACT REPO_ROOT WORK_DIR [--timeout SECONDS] [--slow CONTRACT_ID ...]
      [--pair CONTRACT_ID=IMPL[:ENTRY] ... -I DIR ...]   (only these pairs, no manifests)
--slow: a contract whose obligation takes about the time limit or more is not asked (listed
undecided, "not asked"), so that a run-to-run difference in solver time never flips a line.
"""
import json
import os
import re
import subprocess
import sys

import yaml

kc, root, work = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
opts = sys.argv[4:]


def values(flag):
    return [opts[i + 1] for i, a in enumerate(opts[:-1]) if a == flag]


timeout = (values("--timeout") or ["4"])[-1]
pairs = values("--pair")  # CONTRACT_ID=IMPL[:ENTRY], instead of the manifests
slow = set(values("--slow"))
ops_dir = os.path.join(root, "stdlib/ops")
kernels_dir = os.path.join(ops_dir, "kernels")


def rel(p):
    return os.path.relpath(p, root) if os.path.abspath(p).startswith(root + os.sep) else p


# --- the pairs, as suite entries ---------------------------------------------------------------
entries, includes, cuda = [], set(), []
for pair in pairs:
    contract, _, impl = pair.partition("=")
    path, _, entry = impl.partition(":")
    entries.append({"name": pair, "impl": os.path.abspath(path), "contract": contract, **({"entry": entry} if entry else {})})
includes.update(os.path.abspath(d) for d in values("-I"))
sources = {f: open(os.path.join(kernels_dir, f)).read() for f in sorted(os.listdir(kernels_dir)) if f.endswith(".c")}
for f in [] if pairs else sorted(os.listdir(ops_dir)):
    if not f.endswith(".kcontract"):
        continue
    op = f[: -len(".kcontract")]
    impl = [k for k, text in sources.items() if re.search(r"^int kc_%s\(" % re.escape(op), text, re.M)]
    if len(impl) != 1:
        print(f"op {op}: no single reference kernel defines kc_{op} (found {impl or 'none'})")
        continue
    entries.append({"name": f"op {op}", "impl": os.path.join(kernels_dir, impl[0]), "op": op})

# The manifests: calibration pairs ("classes": each conforming kernel must pass its contract)
# and suite entries ("kernels": those with `expect: pass`), either in either file. One that is
# not there (moved, merged) gives no pairs.
manifests = [os.path.join(root, "contracts/calibration.yaml"), os.path.join(kernels_dir, "calibration.yaml")]


def load(path):
    return (yaml.safe_load(open(path)) or {}) if os.path.exists(path) else {}


seen, cal_contracts = set(), set()
for manifest in [] if pairs else manifests:
    m, here = load(manifest), os.path.dirname(manifest)
    for pair in m.get("classes", []):
        impl = pair["conforming"]
        path, _, entry = impl.partition(":")
        key = (pair["contract"], impl, pair.get("backend", "host"))
        if key in seen:
            continue
        seen.add(key)
        cal_contracts.add(pair["contract"])
        if pair.get("backend", "host") != "host":
            cuda.append((pair["contract"], f"{pair['contract']} with {rel(os.path.join(here, path))}"))
            continue
        e = {"name": f"calibration {pair['contract']}", "impl": os.path.normpath(os.path.join(here, path)),
             "contract": pair["contract"]}
        if entry:
            e["entry"] = entry
        entries.append(e)
    kernels = [s for s in m.get("kernels", []) if s.get("expect") == "pass"]
    if kernels:
        includes.add(here)
        includes.update(os.path.normpath(os.path.join(here, d)) for d in m.get("include", []))
    for s in kernels:
        if s.get("backend", m.get("backend", "host")) != "host":
            cuda.append((s.get("contract", "op " + str(s.get("op"))), f"{s['name']} ({rel(os.path.join(here, s['impl']))})"))
            continue
        e = {k: v for k, v in s.items() if k in ("name", "entry", "contract", "op", "supports")}
        e["impl"] = os.path.normpath(os.path.join(here, s["impl"]))
        e["name"] = "expected to pass: " + s["name"]
        entries.append(e)

os.makedirs(work, exist_ok=True)
gen = os.path.join(work, "agree_suite.yaml")
yaml.safe_dump({"kcontract-suite": 1, "backend": "host", "include": sorted(includes), "kernels": entries},
               open(gen, "w"), sort_keys=False)

# --- prove (every contract the pairs can name) and check (one run of the whole suite) ----------
# prove discharges the blind-band-correct obligations alone (--only): the others say nothing
# of a correct kernel, and took nine tenths of its time.
# The two run side by side. check runs host kernels in reused workers (the verdicts of fresh
# ones, faster), and cases over 64 MiB are SKIPPED (the grid-rows cases of 2 million cells among
# them): they run the same kernels on the same tolerance, at sizes that add minutes and nothing
# prove speaks to (e2e/check_ops_conforming runs relu's whole plan, those cases included).
# Contract IDs only (a file among IDs would be filtered to those IDs): every contract the op
# files and the allclose baseline declare, and the calibration manifest's.
def declared(path):
    return re.findall(r"^contract\s+(\S+@\d+)", open(path).read(), re.M)


if pairs:
    targets = sorted({e["contract"] for e in entries})
else:
    targets = [c for f in sorted(os.listdir(ops_dir)) if f.endswith(".kcontract") for c in declared(os.path.join(ops_dir, f))]
    targets += sorted(cal_contracts)
    for inc in sorted(includes):  # the suites' contracts (allclose.NAME), named by their files
        for f in sorted(os.listdir(inc)):
            if f.endswith(".kcontract"):
                targets += [c for c in declared(os.path.join(inc, f)) if c not in targets]
targets = [t for t in targets if t not in slow]
args = [kc, "prove", "--json", "--timeout", timeout, "--only", "blind-band-correct"] + targets
for inc in sorted(includes):
    args += ["-I", inc]
prover = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
out = os.path.join(work, "agree_check.jsonl")
checked = subprocess.run([kc, "check", gen, "--max-memory", "64M", "--workers", "reuse", "--format", "jsonl", "--out", out],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
if not os.path.exists(out):
    prover.kill()
    print("check gave no results:", checked.stderr.strip().splitlines()[:3])
    sys.exit(2)
checks = {}  # (kernel, contract) -> [verdicts]
for line in open(out):
    r = json.loads(line)
    if "contract" not in r or "verdict" not in r:
        continue
    checks.setdefault((r["kernel"], r["contract"]), []).append(r["verdict"])


def check_verdict(vs):
    # SKIPPED (too large here) and MISTRUSTED (a case whose postconditions accept anything)
    # say nothing about the kernel: the others decide.
    bad = [v for v in vs if v not in ("PASS", "SKIPPED", "MISTRUSTED")]
    if bad:
        return "FAIL" if "FAIL" in bad else sorted(set(bad))[0]
    return "PASS" if "PASS" in vs else "SKIPPED"


stdout, stderr = prover.communicate()
try:
    proof = json.loads(stdout)
except json.JSONDecodeError:
    print("prove gave no JSON:", (stderr or stdout).strip().splitlines()[:3])
    sys.exit(2)
proved = {}  # contract -> (verdict, why)
for o in proof["obligations"]:
    if o["id"].endswith("/blind-band-correct"):
        proved[o["id"].rsplit("/", 1)[0]] = (o["verdict"], o.get("message", ""))
for s in proof.get("skipped", []):
    if s["id"].endswith("/blind-band-correct"):
        proved[s["id"].rsplit("/", 1)[0]] = ("skipped", s.get("reason", ""))
for contract in slow:
    proved[contract] = ("not asked", f"--slow: its obligation takes about {timeout} s or more")

# --- the comparison ----------------------------------------------------------------------------
counts = {"agree": 0, "DISAGREE": 0, "undecided": 0}
for (kernel, contract), vs in sorted(checks.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    pv, why = proved.get(contract, ("absent", "no blind-band-correct obligation"))
    cv = check_verdict(vs)
    if pv in ("ok", "problem") and cv in ("PASS", "FAIL"):
        result = "agree" if (pv == "ok") == (cv == "PASS") else "DISAGREE"
    else:
        result = "undecided"
    counts[result] += 1
    prove_text = {"ok": "a correct implementation passes", "problem": "a correct implementation can fail"}.get(pv, pv)
    if pv not in ("ok", "problem") and why:
        prove_text += f" ({why})"
    kernel_text = rel(kernel.rsplit(":", 1)[0]) + (":" + kernel.rsplit(":", 1)[1] if ":" in kernel else "")
    print(f"{result:9}  {contract:28}  prove: {prove_text}; check {cv}: {kernel_text}")
for e in entries:  # a kernel check gave no case at all (not found, not built): never agreement
    ran = [k for k in checks if k[0].rsplit(":", 1)[0] == e["impl"] and (e.get("op") or e["contract"] in (k[1], k[1].split("@")[0]))]
    if not ran:
        counts["undecided"] += 1
        print(f"{'undecided':9}  {e.get('contract', 'op ' + e.get('op', '?')):28}  check ran no case: {rel(e['impl'])}")
for contract, c in cuda:
    pv = proved.get(contract, ("absent", ""))[0]
    print(f"cuda pair, not run here: {c} (prove: {pv})")
print(f"{counts['agree']} agree, {counts['DISAGREE']} disagree, {counts['undecided']} undecided")
sys.exit(1 if counts["DISAGREE"] else 0)
