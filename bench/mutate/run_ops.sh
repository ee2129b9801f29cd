#!/usr/bin/env bash
# Mutation analysis of every standard op's host reference kernel (stdlib/ops/kernels/)
# against the op's standard contract, with the allclose baseline beside it: one
# `kcontract mutate` per op, its JSON report in OUT/OP.json and its score lines in OUT/OP.txt,
# then the table of bench/README.md (summary.py).
#   bench/mutate/run_ops.sh [OUT] [OP...]     (default OUT: build/bench-mutate; default: every op)
# Host plans at f32 (the dtype every op but int8_gemm takes), cases over 64 MiB skipped: the
# figures of a small, time-bounded CI-sized run; see docs/mutate.md for the full plan on a GPU.
# NAMING=signatures measures the naming the earlier way (docs/mutate.md, "Outcomes and
# scores"); the default names each killed mutant by the diagnosis's primary cause.
set -uo pipefail
cd "$(dirname "$0")/../.."
KC="${KC:-build/kcontract}"
OUT="${1:-build/bench-mutate}"
shift || true
mkdir -p "$OUT"
ops=("$@")
if [ ${#ops[@]} -eq 0 ]; then
  for f in stdlib/ops/*.kcontract; do ops+=("$(basename "$f" .kcontract)"); done
fi
for op in "${ops[@]}"; do
  kernel=$(grep -l "^int kc_$op(" stdlib/ops/kernels/*.c | head -1)
  dtype=(--dtype f32)
  [ "$op" = int8_gemm ] && dtype=()
  start=$(date +%s)
  "$KC" mutate "$kernel" --op "$op" "${dtype[@]}" --progress --max-memory 64M --timeout 5 --naming "${NAMING:-diagnosis}" --format json --out "$OUT/$op.json" >"$OUT/$op.txt" 2>&1
  echo "$op: exit $? in $(( $(date +%s) - start )) s"
  grep '^mutate:' "$OUT/$op.txt"
done
python3 bench/mutate/summary.py "$OUT"
