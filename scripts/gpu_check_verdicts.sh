#!/usr/bin/env bash
# Issue 17 [verdicts] on a GPU machine, from the repository root with the bundle carried
# (scripts/bundle.sh build). One stage per call, so each fits the device's 10-minute limit:
#
#   scripts/gpu_check_verdicts.sh calibrate   # calibrate --all --backend cuda: every CUDA pair
#                                             # (f16 GEMM, int32 index, rank-1 stride, gather
#                                             # without bounds checks, ...) shows all three states
#   scripts/gpu_check_verdicts.sh vendor-cuda # every standard op's PyTorch implementation on
#                                             # CUDA, every case at every dtype (suite_cuda.yaml)
#   scripts/gpu_check_verdicts.sh vendor-cpu  # the same on this machine's torch on the CPU, for
#                                             # the ops whose bf16 CPU kernels FAIL on Debian's
#                                             # torch 1.13 (they keep intermediates in bf16)
#
# Results go to $OUT (or a temporary folder): the text output and JSON Lines of each stage,
# and one summary line per op and dtype (adaptors/pytorch/vendor/summarise.py).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
out="${OUT:-$(mktemp -d)}"
export KC_CACHE_DIR="${KC_CACHE_DIR:-$out/cache}"
stage="${1:-}"
SECONDS=0
case "$stage" in
  calibrate)
    (cd contracts && "$KC" calibrate --all --backend cuda --timeout 300) >"$out/calibrate_cuda.txt" 2>&1
    rc=$?
    grep -E "^(op |std\.)|caught|catches|calibrate:" "$out/calibrate_cuda.txt"
    ;;
  vendor-cuda)
    (cd adaptors/pytorch/vendor && KC_TORCH_DEVICE=cuda "$KC" check suite_cuda.yaml --expect --timeout 600 \
      --format jsonl --out "$out/vendor_cuda.jsonl" --replace) >"$out/vendor_cuda.txt" 2>&1
    rc=$?
    python3 adaptors/pytorch/vendor/summarise.py "$out/vendor_cuda.jsonl" | tee "$out/vendor_cuda_summary.txt"
    tail -n 30 "$out/vendor_cuda.txt"
    ;;
  vendor-cpu)
    v="$root/adaptors/pytorch/vendor"
    {
      echo "kcontract-suite: 1"
      echo "backend: exec"
      echo "kernels:"
      for op in gelu gelu_tanh silu layernorm matmul bmm; do
        for dt in bf16 f16 f32; do
          printf '  - name: %s %s\n    impl: %s/%s.kcexec\n    op: %s\n    expect: pass\n    supports: {dtypes: {T: [%s]}}\n' \
            "$op" "$dt" "$v" "$op" "$op" "$dt"
        done
      done
    } >"$out/vendor_cpu.yaml"
    python3 -c 'import torch; print("torch", torch.__version__)'
    KC_TORCH_DEVICE=cpu "$KC" check "$out/vendor_cpu.yaml" --expect --timeout 600 \
      --format jsonl --out "$out/vendor_cpu.jsonl" --replace >"$out/vendor_cpu.txt" 2>&1
    rc=$?
    python3 adaptors/pytorch/vendor/summarise.py "$out/vendor_cpu.jsonl" | tee "$out/vendor_cpu_summary.txt"
    tail -n 20 "$out/vendor_cpu.txt"
    ;;
  *)
    echo "usage: scripts/gpu_check_verdicts.sh calibrate|vendor-cuda|vendor-cpu" >&2
    exit 2
    ;;
esac
echo "[$stage: exit $rc, ${SECONDS} s]"
exit "$rc"
