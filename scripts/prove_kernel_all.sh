#!/usr/bin/env bash
# kcontract prove --kernel on every CUDA example and calibration kernel it targets (docs/ptx.md,
# "Symbolic mode"; bench/README.md "prove --kernel: figures"): each kernel's verdict at its
# reduced shape, with the wall time. Counterexample files go to $OUT (default a temp folder).
#   scripts/prove_kernel_all.sh [KCONTRACT]
set -uo pipefail
cd "$(dirname "$0")/.."
KC="${1:-build/kcontract}"
OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT"
C=contracts/calibration
D=tests/e2e/data/prove_kernel
# contract | kernel | extra flags
while IFS='|' read -r contract kernel flags; do
  [ -z "$contract" ] && continue
  name=$(basename "$kernel" .cu)
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$KC" prove "$contract" --kernel "$kernel" --cex "$OUT/$name.cex.json" $flags > "$OUT/$name.txt" 2>&1
  rc=$?
  end=$(date +%s.%N)
  verdict=$(grep -m1 '  verdict:' "$OUT/$name.txt" | sed 's/^  verdict: //' | cut -c1-150)
  printf '%-28s %-34s %6.2f s  rc=%d  %s\n' "$name" "$(basename "$contract")" "$(echo "$end - $start" | bc)" "$rc" "$verdict"
done <<LIST
examples/relu/relu.kcontract|examples/relu/relu.cu|
examples/relu/relu.kcontract|examples/relu/relu_nan.cu|
examples/matmul/matmul.kcontract|examples/matmul/matmul.cu|
examples/matmul/matmul.kcontract|examples/matmul/matmul_k_tail.cu|
examples/softmax/softmax.kcontract|examples/softmax/softmax.cu|
examples/softmax/softmax.kcontract|examples/softmax/softmax_no_max.cu|
examples/layernorm/layernorm.kcontract|examples/layernorm/layernorm.cu|
examples/layernorm/layernorm.kcontract|examples/layernorm/layernorm_one_pass.cu|
std.op.add@2|$C/cuda/add.cu|
$C/scale.kcontract|$C/cuda/scale.cu|
$C/relu.kcontract|$C/cuda/relu.cu|
$C/relu.kcontract|$C/cuda/relu_fmaxf.cu|
std.op.sum@3|$C/cuda/sum.cu|
$C/rowsum.kcontract|$C/cuda/rowsum.cu|
$C/rowsum.kcontract|$C/cuda/rowsum_atomic.cu|
$C/rowsum.kcontract|$C/cuda/rowsum_batch_split.cu|
std.op.matmul@3|$C/cuda/matmul.cu|
$C/scale.kcontract|$D/scale_missing.cu|
$C/relu.kcontract|$D/relu_vec_tail.cu|
$C/relu.kcontract|$D/relu_vec_tail_ok.cu|
$C/rowsum.kcontract|$D/rowsum_split_overwrite.cu|
$C/rowsum.kcontract|$D/rowsum_split_ok.cu|
LIST
echo "outputs and counterexamples: $OUT"
