# Bad values are input errors (exit 2), said before anything runs, naming the flag or the
# suite line and the value (docs/checking.md, "Input rules"): numeric flags that are NaN,
# infinite, fractional, signed or out of range; unknown backends and dtypes; narrowing that
# selects nothing; non-scalar YAML keys; a real literal that overflows to inf.
K=../../stdlib/ops/kernels/softmax.c
echo "--- numeric flags"
for flag in "--timeout nan" "--timeout inf" "--timeout 1e999" "--timeout 0" "--seed -1" "--seed 1.5" \
            "--seed 18446744073709551616" "--threads 0" "--stream-cells 1.5" "--sanitize-case 0" \
            "--max-memory nan" "--max-memory inf" "--max-memory 0.5" "--shard 1.5/2" "--shard -1/2" "--shard 0/2x"; do
  kc check --op softmax --impl "$K" $flag 2>&1 | grep -v '^Run with --help'
done
KC_STREAM_CELLS=nan kc check --op softmax --impl "$K"
kc calibrate softmax --timeout nan 2>&1 | grep -v '^Run with --help'
kc calibrate softmax --seed 1.5 2>&1 | grep -v '^Run with --help'
kc plan std.op.softmax@2 --seed -1 2>&1 | grep -v '^Run with --help'
kc replay "file=x.kcontract contract=a@1 case=1 seed-index=0 base-seed=0 impl=k.c:kc_k backend=host inputs=- timeout=nan"
echo "--- names"
kc check --op softmax --impl "$K" --backend metal
kc calibrate softmax --backend metal
kc check --op softmax --impl "$K" --dtype f99
echo "--- narrowing that selects nothing"
kc check --op softmax --impl "$K" --dtype i32
kc check --op softmax --impl "$K" --dims R=100000..200000
kc check --op softmax --impl "$K" --layouts step
kc check --op softmax --impl "$K" --dims X=1..4
suite() { printf 'kcontract-suite: 1\nkernels:\n  - impl: %s\n    op: softmax\n    %s\n' "$PWD/$K" "$1" >"$WORK/suite.yaml"; kc check "$WORK/suite.yaml"; }
suite 'supports: {dims: {R: 100000..200000}}'
suite 'supports: {layouts: [step]}'
suite 'supports: {dims: {X: 1..4}}'
suite 'supports: {dims: {R: 5x}}'
suite 'supports: {dtypes: [f99]}'
suite 'backend: metal'
echo "--- non-scalar YAML keys"
suite 'supports: {dims: {{R: 1}: 1..4}}'
suite 'supports: {[dims]: {R: 1..4}}'
suite '? [a, b]
    : 1'
echo "--- a real literal beyond f64"
sed 's/tol\[r\] = gamma(H, f32) \* sum(h, |x\[r, h\]|)/tol[r] = 1e999/' data/rowsum_plain.kcontract >"$WORK/inf.kcontract"
kc check "$WORK/inf.kcontract" --impl ../../contracts/calibration/rowsum.c:kc_cal_rowsum
