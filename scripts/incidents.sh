#!/usr/bin/env bash
# Writes the documented incidents, contracts/incidents/NAME.md, from real runs: each one's
# check into a results file, then `kcontract incident` on its case with NAME.notes.md (the
# narrative) first. tests/e2e/incidents.sh runs it into a scratch folder and compares.
#   scripts/incidents.sh [KCONTRACT] [OUT_DIR]   (defaults: build/kcontract, contracts/incidents)
set -euo pipefail
cd "$(dirname "$0")/.."
KC="${1:-build/kcontract}"
OUT="${2:-contracts/incidents}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kc-incidents.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
# NAME  CONTRACT  KERNEL  CASE (a case the incident's signature names)
while read -r name contract kernel case; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  "$KC" check "$contract" --impl "$kernel" --format jsonl --out "$WORK/$name.jsonl" >/dev/null || [[ $? -eq 1 ]]
  "$KC" incident "$WORK/$name.jsonl" --case "$case" --notes "contracts/incidents/$name.notes.md" \
    --out "$OUT/$name.md" --replace
  # The committed reports name no folder of this checkout: the repository root is written <repository>.
  sed -i "s|$PWD|<repository>|g" "$OUT/$name.md"
  echo "wrote $OUT/$name.md"
done <<'TABLE'
amd-out-of-bounds          std.cal.rowsum@1  contracts/calibration/rowsum_overrun.c              1
ascend-precision-coercion  std.cal.gemm@1    contracts/incidents/kernels/gemm_fp16_coerced.c     1
sakana-memory-reuse        std.cal.relu@1    contracts/incidents/kernels/relu_noop_reuse.c       1
TABLE
