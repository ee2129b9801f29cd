#!/usr/bin/env bash
# Proves `check --devices` (docs/scale.md) on a machine with two or more GPUs. Run it THERE,
# from the repository root, with the bundle made here by scripts/bundle.sh carried along:
#
#   scripts/gpu_devices_check.sh        # KC=path/to/kcontract to use another binary
#
# Two suites, each run twice, once on one device and once with --devices all:
#  1. examples/suite_cuda.yaml: every CUDA example against its own contract;
#  2. the standard checks (--op softmax, matmul, layernorm, relu) of every CUDA example.
# The JSON Lines of the two runs must hold the same results, case by case, timings aside,
# and the text reports the same diagnoses. Prints the wall time of each run. Exit 0 when
# both suites agree, else 1.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kc-devices-check.XXXXXX")"
export KC_CACHE_DIR="$work/cache"
failures=0

echo "== machine"
nvidia-smi -L 2>&1 || echo "(nvidia-smi failed)"

# The standard checks: each CUDA example held to the standard op it implements.
ops="$work/ops.yaml"
{
  echo "kcontract-suite: 1"
  echo "backend: cuda"
  echo "kernels:"
  for k in softmax softmax_no_max; do
    echo "  - {impl: $root/examples/softmax/$k.cu, entry: kc_acme_softmax, op: softmax, supports: {dtypes: [f32, bf16]}}"
  done
  for k in matmul matmul_k_tail; do
    echo "  - {impl: $root/examples/matmul/$k.cu, entry: kc_acme_gemm, op: matmul, supports: {dtypes: [f32]}}"
  done
  for k in layernorm layernorm_one_pass; do
    echo "  - {impl: $root/examples/layernorm/$k.cu, entry: kc_acme_layernorm, op: layernorm, supports: {dtypes: [f32]}}"
  done
  for k in relu relu_nan; do
    echo "  - {impl: $root/examples/relu/$k.cu, entry: kc_acme_relu, op: relu, supports: {dtypes: [f32, bf16]}}"
  done
} >"$ops"

# A run's results without what differs between runs: timings, the integrity chain, the run id.
same_results() {
  python3 - "$1" "$2" <<'PY'
import json, sys
def load(path):
    out = []
    for line in open(path):
        r = json.loads(line)
        for k in ("seconds", "chain", "run"):
            r.pop(k, None)
        out.append(r)
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
print(f"one device: {len(a)} results; --devices all: {len(b)}; differing: {len(diff) + abs(len(a) - len(b))}")
for i in diff[:5]:
    print("  differs:", a[i].get("case"), a[i].get("kernel"), a[i].get("verdict"), "vs", b[i].get("verdict"))
sys.exit(0 if a == b else 1)
PY
}

# The diagnoses and the summary table of a text report (its case lines carry timings).
summary() { sed -n '/^kernel /,$p' "$1"; grep -E '^(diagnosis|  cause|    )' "$1" | grep -v ' s$' || true; }

for suite in examples/suite_cuda.yaml "$ops"; do
  name=$(basename "$suite" .yaml)
  echo
  echo "== $name: one device, then --devices all"
  start=$(date +%s.%N)
  "$KC" check "$suite" --timeout 60 --format jsonl --out "$work/$name.one.jsonl" >"$work/$name.one.txt" 2>&1
  rc1=$?
  mid=$(date +%s.%N)
  "$KC" check "$suite" --timeout 60 --devices all --format jsonl --out "$work/$name.all.jsonl" >"$work/$name.all.txt" 2>&1
  rc2=$?
  end=$(date +%s.%N)
  grep -E '^devices: ' "$work/$name.all.txt"
  printf 'wall time: one device %.1f s (exit %d); --devices all %.1f s (exit %d)\n' \
    "$(echo "$mid - $start" | bc)" "$rc1" "$(echo "$end - $mid" | bc)" "$rc2"
  sed -n '/^kernel /,$p' "$work/$name.one.txt"
  if same_results "$work/$name.one.jsonl" "$work/$name.all.jsonl" && [[ $rc1 == "$rc2" ]] &&
     diff <(summary "$work/$name.one.txt") <(summary "$work/$name.all.txt") >"$work/$name.diff"; then
    echo "gpu_devices_check: OK    $name: the same results, exit status and diagnoses"
  else
    echo "gpu_devices_check: WRONG $name"
    head -40 "$work/$name.diff"
    failures=$((failures + 1))
  fi
done
[[ -n "${OUT:-}" ]] && cp -r "$work"/*.txt "$work"/*.jsonl "$OUT/" 2>/dev/null
echo
echo "== gpu_devices_check: $((2 - failures)) of 2 suites agree (${SECONDS} s)"
[[ $failures == 0 ]]
