# The exec backend's protocol (docs/backends.md) with a NumPy-only adaptor: a correct ReLU
# PASSes, `x > 0 ? x : 0` FAILs with nan-swallowed, and an adaptor that exits nonzero
# (ERROR with its stderr), dies on SIGSEGV (CRASH), hangs (TIMEOUT), writes an output of the
# wrong shape (ERROR) or reports a nonzero status (ERROR) gets its verdict; the run goes on.
export PATH="/usr/bin:$PATH"
cp adaptors/np_adaptor.py adaptors/*.kcexec ../../examples/relu/relu.kcontract "$WORK/"
cd "$WORK"
mkdir tmp && export TMPDIR="$WORK/tmp"  # the run's folders go here: none may be left
cat > suite.yaml <<YAML
kcontract-suite: 1
backend: exec
kernels:
  - {impl: np_relu.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..300}}}
  - {impl: np_relu_nan.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..300}}}
  - {impl: np_exit.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}
  - {impl: np_segv.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}
  - {impl: np_hang.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}
  - {impl: np_shape.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}
  - {impl: np_status.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}
YAML
kc check suite.yaml --timeout 5 >out.txt
grep -E '^(ERROR|CRASH|TIMEOUT)' -A1 out.txt | grep -v '^--' | sed -E 's/case-[A-Za-z0-9]{6}/case-XXXXXX/g; s/kc-exec-[A-Za-z0-9]{6}/kc-exec-XXXXXX/g'
echo "the adaptor's stderr in the ERROR: $(grep -c '^np_adaptor: something went wrong in the adaptor' out.txt)"
grep -E '^FAIL' -A1 out.txt | head -2
sed -n '/^kernel /,$p' out.txt
echo "temporary folders left: $(ls -A "$TMPDIR" | grep -c kc-exec)"
