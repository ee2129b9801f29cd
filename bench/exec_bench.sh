#!/usr/bin/env bash
# The exec backend's cost (issue 18): the full f32 standard check `kcontract check --op OP
# --dtype f32` of a torch function (bench/exec/torch_ops.py, on the CPU) through exec
# protocol v1 (a process per launch) and v2 (one adaptor per worker, shared buffers),
# side by side in one run with the same check of the op's C reference kernel
# (stdlib/ops/kernels/) on the host backend. Prints wall seconds, cases, verdicts and the
# ratio to the C reference. The C kernel is built once before anything is timed.
#   bench/exec_bench.sh [--no-v1] [OP...]        (default: softmax rmsnorm)
# Environment: KC (the kcontract binary; default build/kcontract), KC_PYTHON (the interpreter
# with torch; default python3 on PATH).
set -uo pipefail
cd "$(dirname "$0")/.."
KC="${KC:-build/kcontract}"
v1=1
ops=()
for a in "$@"; do
  if [[ "$a" == --no-v1 ]]; then v1=0; else ops+=("$a"); fi
done
[[ ${#ops[@]} -eq 0 ]] && ops=(softmax rmsnorm)
declare -A cfile=([softmax]=softmax.c [log_softmax]=softmax.c [rmsnorm]=norms.c [layernorm]=norms.c)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# One timed check: prints "SECONDS CASES VERDICT".
timed() {
  local out="$tmp/out.txt" start end
  start=$(date +%s.%N)
  "$KC" check "$@" >"$out" 2>&1
  end=$(date +%s.%N)
  local total verdict
  total=$(grep -E '^total ' "$out" | tail -1)
  verdict=$(awk '/^total /{for(i=1;i<=NF;i++) if ($i ~ /^(PASS|FAIL|ERROR|CRASH|TIMEOUT|MISTRUSTED|SKIPPED|UNKNOWN)$/) v=$i} END{print v}' "$out")
  printf '%.1f %s %s\n' "$(echo "$end - $start" | bc)" "$(echo "$total" | awk '{print $2}')" "${verdict:-?}"
}
printf '%-9s %-34s %-8s %8s %6s %-8s %9s\n' op kernel backend wall cases verdict "x C ref"
for op in "${ops[@]}"; do
  c="stdlib/ops/kernels/${cfile[$op]:-$op.c}:kc_$op"
  "$KC" check --op "$op" --impl "$c" --dtype f32 --timeout 1 --shard 0/100000 >/dev/null 2>&1  # build it once
  read -r cs cn cv < <(timed --op "$op" --impl "$c" --dtype f32)
  printf '%-9s %-34s %-8s %7.1fs %6s %-8s %9s\n' "$op" "$c" host "$cs" "$cn" "$cv" 1.00
  read -r s n v < <(timed --op "$op" --impl "bench/exec/${op}_v2.kcexec" --backend exec --dtype f32 --timeout 300)
  printf '%-9s %-34s %-8s %7.1fs %6s %-8s %9.2f\n' "$op" "torch_ops:$op (exec v2)" exec "$s" "$n" "$v" "$(echo "$s / $cs" | bc -l)"
  if [[ $v1 == 1 ]]; then
    read -r s n v < <(timed --op "$op" --impl "bench/exec/${op}_v1.kcexec" --backend exec --dtype f32 --timeout 600)
    printf '%-9s %-34s %-8s %7.1fs %6s %-8s %9.2f\n' "$op" "torch_ops:$op (exec v1)" exec "$s" "$n" "$v" "$(echo "$s / $cs" | bc -l)"
  fi
done
