# The PyTorch adaptor (adaptors/pytorch/kc_torch.py) over exec protocol v2 on the CPU
# (Debian's python3-torch): one adaptor process for every case of a worker; inputs are
# views of the checker's own buffers, so a kernel that zeroes its inputs FAILs with
# input-modified; a callable that writes into given outputs gets the poisoned buffers
# (half written: unwritten-cells); one that returns torch.empty memory it wrote only in part
# FAILs with unwritten-cells (the allocator's free memory is poisoned); a wrong output
# dtype and an exception are ERRORs, a device fault a CRASH; a v1 spec still works.
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
cp adaptors/torch_attacks.py ../../examples/relu/relu.kcontract ../../examples/softmax/softmax.kcontract "$WORK/"
cd "$WORK"
spec() { printf '{"protocol": "kcontract-exec/2", "python": "python3", "command": ["%s/adaptors/pytorch/kc_torch.py", "torch_attacks:%s"]}\n' "$ROOT_DIR" "$1" > "$1.kcexec"; }
ROOT_DIR="$(cd "$OLDPWD/../.." && pwd)"
for f in ModelNew relu_zero_inputs relu_given relu_given_half relu_out relu_f64 relu_device_fault relu_raises; do spec $f; done
cat > suite.yaml <<YAML
kcontract-suite: 1
backend: exec
kernels:
  - {impl: relu_given.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..5000}}}
  - {impl: relu_out.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..300}}}
  - {impl: ModelNew.kcexec, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1000..1000, H: 31..31}}}
  - {impl: relu_zero_inputs.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65..65}}}
  - {impl: relu_given_half.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65..65}}}
  - {impl: relu_f64.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}
  - {impl: relu_device_fault.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}
  - {impl: relu_raises.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}
YAML
# The adaptor counts its starts in a file of $WORK, which a cell keeps it from writing:
# --sandbox off here (check_sandbox_attacks_torch.sh tests the adaptor in its cell).
KC_TORCH_PIDS="$WORK/pids" kc check suite.yaml --timeout 60 --sandbox off >out.txt
grep -E '^(ERROR|CRASH)' -A1 out.txt | grep -v '^--'
sed -n '/^kernel /,$p' out.txt
echo "adaptors started (one per kernel): $(sort -u pids | wc -l)"
echo "== protocol v1 still works"
printf '{"python": "python3", "command": ["%s/adaptors/pytorch/kc_torch.py", "torch_attacks:relu"]}\n' "$ROOT_DIR" > v1.kcexec
printf 'kcontract-suite: 1\nbackend: exec\nkernels:\n  - {impl: v1.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65..65}}}\n' > v1.yaml
kc check v1.yaml --timeout 120 2>&1 | tail -1
echo "== the leak readings (kc_torch/device.py) on made-up counts: CUDA alone has them"
python3 - "$ROOT_DIR/adaptors/pytorch" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import torch
from kc_torch import device
def run(memory, streams):
    d = device.Device(torch.device("cpu"))
    m, s = iter(memory), iter(streams)
    d._allocated, d._live_streams = (lambda: next(m)), (lambda: next(s))
    return [d.after_launch() for _ in memory][-1] or "(none)"
print("memory kept per launch:", run([1000, 5096, 9192], [2, 2, 2]))
print("memory kept once (a workspace):", run([1000, 5096, 5096], [2, 2, 2]))
print("memory kept, below a block:", run([1000, 1100, 1200], [2, 2, 2]))
print("a stream per launch:", run([0, 0, 0], [2, 3, 4]))
print("a stream at the first launch only:", run([0, 0, 0], [2, 3, 3]))
PY
