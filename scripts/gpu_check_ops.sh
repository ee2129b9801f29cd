#!/usr/bin/env bash
# Some standard ops' PyTorch vendor controls (adaptors/pytorch/vendor/NAME.kcexec) against
# their standard contracts on a GPU machine, every case at every dtype, through CUDA and on
# the CPU; from the repository root with the bundle carried (scripts/bundle.sh build). For
# the ops a change adds, before the whole suite_cuda.yaml (scripts/gpu_check_verdicts.sh):
#
#   scripts/gpu_check_ops.sh l1_norm l2_norm frobenius_norm
#   scripts/gpu_check_ops.sh conv_transpose2d:bf16      # OP:DTYPE: that dtype only
#
# Results go to $OUT (or a temporary folder): per device the suite, the text output, JSON
# Lines and one summary line per op and dtype (adaptors/pytorch/vendor/summarise.py).
# DEVICES="cuda" runs the CUDA side only (default: cuda cpu); JOBS=N runs N entries side by side
# (check --jobs: the same verdicts, sooner on a machine of many cores).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
export KC_CACHE_DIR="${KC_CACHE_DIR:-$out/cache}"
[[ $# -gt 0 ]] || { echo "usage: scripts/gpu_check_ops.sh OP[:DTYPE]..." >&2; exit 2; }
v="$root/adaptors/pytorch/vendor"
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())'
rc=0
for device in ${DEVICES:-cuda cpu}; do
  {
    echo "kcontract-suite: 1"
    echo "backend: exec"
    echo "kernels:"
    for spec in "$@"; do
      op=${spec%%:*}
      dtypes=(f16 bf16 f32)
      [[ $spec == *:* ]] && dtypes=("${spec#*:}")
      for dt in "${dtypes[@]}"; do
        printf '  - name: %s %s\n    impl: %s/%s.kcexec\n    op: %s\n    expect: pass\n    supports: {dtypes: {T: [%s]}}\n' \
          "$op" "$dt" "$v" "$op" "$op" "$dt"
      done
    done
  } >"$out/ops_$device.yaml"
  echo "== $device"
  KC_TORCH_DEVICE=$device "$KC" check "$out/ops_$device.yaml" --expect --timeout 600 --jobs "${JOBS:-1}" \
    --format jsonl --out "$out/ops_$device.jsonl" --replace >"$out/ops_$device.txt" 2>&1 || rc=1
  python3 "$v/summarise.py" "$out/ops_$device.jsonl" | tee "$out/ops_${device}_summary.txt"
  grep -E -A12 '^diagnosis' "$out/ops_$device.txt" | head -40
  sed -n '/^expectations:/p; /^\[exit/p' "$out/ops_$device.txt"
done
exit $rc
