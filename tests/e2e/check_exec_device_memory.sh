# Exec protocol v2's device memory (docs/backends.md, "Device memory"), on the CPU: with
# "device_memory": true in the spec, a case too large for host memory (--max-memory 1M here,
# 2^31 elements on a GPU) runs on the streamed path with its buffers in the adaptor's memory,
# driven by requests: the verdicts are those of the normal path. Correct kernels PASS; one
# that zeroes its input FAILs input-modified (compared on the adaptor's side); one that writes
# half its given output FAILs unwritten-cells (counted there); a device fault is a CRASH.
# (torch.empty memory is poisoned through the caching allocator of a GPU: the H200 runs
# tests/e2e/adaptors/torch_cuda_attacks.yaml with a streamed case.) Without the key the same case is SKIPPED, and
# the key on a v1 spec is one error (exit 2).
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
cp adaptors/torch_attacks.py ../../examples/relu/relu.kcontract ../../examples/softmax/softmax.kcontract "$WORK/"
ROOT_DIR="$(cd ../.. && pwd)"
cd "$WORK"
spec() { printf '{"protocol": "kcontract-exec/2", "python": "python3", "device_memory": true, "command": ["%s/adaptors/pytorch/kc_torch.py", "torch_attacks:%s"]}\n' "$ROOT_DIR" "$1" > "$1.kcexec"; }
for f in relu relu_given relu_zero_inputs relu_given_half relu_device_fault; do spec $f; done
cat > suite.yaml <<YAML
kcontract-suite: 1
backend: exec
kernels:
  - {impl: relu.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65537..65537}}}
  - {impl: relu_given.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65537..65537}}}
  - {impl: relu_zero_inputs.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65537..65537}}}
  - {impl: relu_given_half.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65537..65537}}}
  - {impl: relu_device_fault.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65537..65537}}}
YAML
kc check suite.yaml --max-memory 1M --timeout 60 --format jsonl >out.jsonl
python3 - out.jsonl <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line) if line.startswith("{") else {}
    if "case" not in r:
        continue
    streamed = "(streamed;" in r.get("reason", "")
    print(r["kernel"], r["case"], r["verdict"], ",".join(r["signatures"]) or "-",
          "streamed" if streamed else r.get("reason", ""))
PY
echo "== without device_memory the case does not fit: SKIPPED"
sed 's/"device_memory": true, //' relu.kcexec > relu_host.kcexec
kc check relu.kcontract --impl relu_host.kcexec --backend exec --dims N=65537 --dtype f32 --max-memory 1M 2>&1 | grep -A1 '^SKIPPED'
echo "== device_memory needs protocol v2"
printf '{"python": "python3", "device_memory": true, "command": ["kc_torch.py", "torch_attacks:relu"]}\n' > v1.kcexec
kc check relu.kcontract --impl v1.kcexec --backend exec 2>&1 | grep -v '^data folder'
