# Kernels that attack the checker instead of computing (tests/e2e/attacks/, docs/security.md):
# each computes nothing and tries to win another way: forging result lines, ptrace and
# process_vm_writev on the checker, opening its memory, poisoning the kernel cache and the
# contracts, a socket, an orphan that holds the worker's socket, killing the checker, 1 GiB of
# output, detecting the checker, leaving state for its own next run, and sources whose compile never ends, leaks the password
# hashes or floods the compiler. Each is contained and gets the verdict of what it did (FAIL,
# CRASH naming the denied call, ERROR), never PASS; the correct and the buggy relu checked
# after them get the verdicts they got before. --sandbox strict: on a machine without every
# layer nothing runs (exit 2), so no attack ever runs outside a full cell.
cp attacks/* ../../examples/relu/relu.kcontract ../../examples/relu/relu.c ../../examples/relu/relu_nan.c "$WORK/"
cd "$WORK"
bash write_suite.sh host > suite.yaml
sha256sum relu.kcontract > contracts.sha
kc check suite.yaml --sandbox strict --expect --timeout 5 --format jsonl --out results.jsonl > report.txt 2>&1
echo "checker exit: $?"
sed -n '/^expectations/,$p' report.txt
# Per kernel: its verdicts and the first reason or line of output that says what happened.
python3 - <<'PY'
import json
seen = {}
for line in open("results.jsonl"):
    r = json.loads(line)
    k = r["kernel"].split(":")[0]
    e = seen.setdefault(k, [set(), ""])
    e[0].add(r["verdict"])
    out = [l for l in r.get("kernel_output", "").splitlines() if l.strip()]
    e[1] = e[1] or (r.get("reason", "") if r["verdict"] == "CRASH" else (out[0][:60] if out else ""))
for k, (verdicts, what) in seen.items():
    print(f"{k}: {'/'.join(sorted(verdicts))}" + (f"  ({what})" if what else ""))
PY
grep -c 'root:' report.txt | sed 's/^/lines with root: in the report: /'
sha256sum -c --quiet contracts.sha && echo "contracts unchanged"
grep -c '"verdict":"PASS"}$' results.jsonl | sed 's/^/forged lines in the results: /'
pgrep -x kc-attack-orph >/dev/null && echo "an orphan outlived the run" || echo "no orphan left"
# Sources that attack the compiler: each is an error (exit 2) within the limits, at once.
for k in include_dev_zero compile_flood; do
  KC_COMPILE_TIMEOUT=20 kc check relu.kcontract --impl $k.c --dims N=1..100 --dtype f32 --sandbox strict 2>&1 |
    grep -E "fatal error|error: |\[exit" | grep -v "^note" | head -3 | sed -E 's/\.build-[A-Za-z0-9]+/.build-X/; s/-[0-9a-f]{16}\.so/-H.so/'
done
