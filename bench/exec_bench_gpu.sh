#!/usr/bin/env bash
# The exec backend's cost on a GPU (issue 18), run on the H200 with the bundle: the full f32
# standard check `kcontract check --op OP --dtype f32` of a torch function on CUDA through
# exec protocol v2 (bench/exec/OP_cuda.kcexec: torch_ops.py, KC_TORCH_DEVICE=cuda), side by
# side in one run with the same check of a CUDA kernel of the op on the CUDA backend
# (examples/softmax/softmax.cu, examples/matmul/matmul.cu). Prints wall seconds, cases,
# verdicts and the ratio to the CUDA kernel; then the case seconds summed over the cases both
# ran, and their ratio. Both run the large-index cases (tensors of 2^31 elements and more, on
# the streamed path: the CUDA backend's memory, the adaptor's device memory through the
# specs' "device_memory"). Each is run once untimed first (the CUDA kernel built, torch's
# kernels loaded into the page cache), then timed.
#   bench/exec_bench_gpu.sh [OP...]        (default: softmax matmul)
# Environment: KC (the kcontract binary; default bundle/kcontract).
set -uo pipefail
cd "$(dirname "$0")/.."
KC="${KC:-bundle/kcontract}"
ops=("$@")
[[ ${#ops[@]} -eq 0 ]] && ops=(softmax matmul)
declare -A cuda=([softmax]=examples/softmax/softmax.cu:kc_acme_softmax [matmul]=examples/matmul/matmul.cu:kc_acme_gemm)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
timed() {  # JSONL "$@": prints "SECONDS CASES VERDICT"
  local out="$tmp/out.txt" jsonl="$1" start end
  shift
  start=$(date +%s.%N)
  "$KC" check "$@" --format jsonl --out "$jsonl" --replace >"$out" 2>&1  # the same file per op
  end=$(date +%s.%N)
  local verdict
  verdict=$(awk '/^total /{for(i=1;i<=NF;i++) if ($i ~ /^(PASS|FAIL|ERROR|CRASH|TIMEOUT|MISTRUSTED|SKIPPED|UNKNOWN)$/) v=$i} END{print v}' "$out")
  printf '%s %s %s\n' "$(awk -v a="$end" -v b="$start" 'BEGIN { printf "%.1f", a - b }')" "$(grep -E '^total ' "$out" | tail -1 | awk '{print $2}')" "${verdict:-?}"
}
printf '%-9s %-42s %-8s %8s %6s %-8s %11s\n' op kernel backend wall cases verdict "x CUDA ker"
for op in "${ops[@]}"; do
  k="${cuda[$op]}"
  "$KC" check --op "$op" --impl "$k" --backend cuda --dtype f32 >/dev/null 2>&1
  "$KC" check --op "$op" --impl "bench/exec/${op}_cuda.kcexec" --backend exec --dtype f32 --timeout 300 >/dev/null 2>&1
  read -r cs cn cv < <(timed "$tmp/cuda.jsonl" --op "$op" --impl "$k" --backend cuda --dtype f32)
  printf '%-9s %-42s %-8s %7.1fs %6s %-8s %11s\n' "$op" "$k" cuda "$cs" "$cn" "$cv" 1.00
  read -r s n v < <(timed "$tmp/exec.jsonl" --op "$op" --impl "bench/exec/${op}_cuda.kcexec" --backend exec --dtype f32 --timeout 300)
  printf '%-9s %-42s %-8s %7.1fs %6s %-8s %11.2f\n' "$op" "torch_ops:$op (exec v2, cuda)" exec "$s" "$n" "$v" "$(awk -v a="$s" -v b="$cs" 'BEGIN { printf "%.2f", a / b }')"
  python3 - "$tmp/cuda.jsonl" "$tmp/exec.jsonl" "$op" <<'PY'
import json, sys
def ran(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        if r.get("verdict") != "SKIPPED":
            out[r["case"]] = float(r.get("seconds", 0))
    return out
cuda, ex = ran(sys.argv[1]), ran(sys.argv[2])
both = sorted(set(cuda) & set(ex))
a, b = sum(cuda[c] for c in both), sum(ex[c] for c in both)
print(f"{sys.argv[3]:<9} the {len(both)} cases both ran: case seconds cuda {a:.1f} s, exec v2 {b:.1f} s, ratio {b / a if a else float('nan'):.2f}")
PY
done
