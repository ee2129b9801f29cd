#!/usr/bin/env bash
# Issue 27 part 3 on a GPU machine (H100/H200), from the repository root with the bundle
# carried (scripts/bundle.sh build): every refutation of `kcontract prove --kernel`
# (docs/ptx.md, "Symbolic mode") replayed on the CUDA backend. For each bug kernel:
#   1. prove --kernel (nvcc and cvc5 on this machine) writes the counterexample file;
#   2. replay --inputs FILE --backend ptx (the confirmation prove made) and --backend cuda
#      (the H100/H200's verdict), each case line printed.
# The correct twins are proved too, for the record. Results go to $OUT (or a temporary
# folder): each step's output, and summary.txt with one line per kernel.
#   scripts/gpu_check_prove_kernel.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
export KC_CACHE_DIR="${KC_CACHE_DIR:-$out/cache}"
C=contracts/calibration
D=tests/e2e/data/prove_kernel
summary="$out/summary.txt"
: >"$summary"
SECONDS=0
# contract | kernel | what the bug is ("" for a correct twin)
while IFS='|' read -r contract kernel bug; do
  [ -z "$contract" ] && continue
  name=$(basename "$kernel" .cu)
  "$KC" prove "$contract" --kernel "$kernel" --cex "$out/$name.cex.json" >"$out/$name.prove.txt" 2>&1
  verdict=$(grep -m1 '  verdict:' "$out/$name.prove.txt" | sed 's/^  verdict: //' | cut -c1-100)
  line="$name: prove --kernel: $verdict"
  for f in "$out/$name".cex*.json; do
    [ -f "$f" ] || continue
    for be in ptx cuda; do
      "$KC" replay --inputs "$f" --backend "$be" >"$f.$be.txt" 2>&1
      line="$line | $(basename "$f") on $be: $(head -1 "$f.$be.txt" | awk '{print $1}')"
    done
  done
  [ -n "$bug" ] && line="$line  ($bug)"
  echo "$line" | tee -a "$summary"
done <<LIST
examples/matmul/matmul.kcontract|examples/matmul/matmul_k_tail.cu|dropped K tail
$C/scale.kcontract|$D/scale_missing.cu|missing scale
$C/relu.kcontract|$D/relu_vec_tail.cu|tail mask: the last n % 4 cells never written
$C/rowsum.kcontract|$D/rowsum_split_overwrite.cu|accumulate-overwrite
examples/layernorm/layernorm.kcontract|examples/layernorm/layernorm_one_pass.cu|one-pass variance (the solver times out; a concrete probe refutes)
examples/softmax/softmax.kcontract|examples/softmax/softmax_no_max.cu|no max subtraction (exp overflows; a concrete probe refutes)
examples/matmul/matmul.kcontract|examples/matmul/matmul.cu|
$C/scale.kcontract|$C/cuda/scale.cu|
$C/relu.kcontract|$D/relu_vec_tail_ok.cu|
$C/rowsum.kcontract|$D/rowsum_split_ok.cu|
LIST
echo "prove_kernel: ${SECONDS}s; results in $out" | tee -a "$summary"
