#!/usr/bin/env bash
# The attack suite on the H200 (issue 19, docs/security.md): the host attack kernels of
# tests/e2e/attacks/ compiled as CUDA sources (each .c wrapped in a .cu) and checked on the
# CUDA backend in a strict cell, the PyTorch attacks on CUDA, and the cell's cost beside
# --sandbox off. Run from the repository root with the bundle: scripts/gpu_check_sandbox.sh
set -uo pipefail
cd "$(dirname "$0")/.."
KC="${KC:-bundle/kcontract}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp tests/e2e/attacks/* examples/relu/relu.kcontract examples/relu/relu.cu examples/relu/relu_nan.cu "$work/"
(
  cd "$work"
  bash write_suite.sh cuda > suite.yaml
  echo "== CUDA attack suite (--sandbox strict)"
  "$OLDPWD/$KC" check suite.yaml --sandbox strict --expect --timeout 30 > report.txt 2>&1
  echo "checker exit: $?"
  grep -m5 "error:" report.txt | cut -c1-300
  sed -n '/^kernel /,$p' report.txt | sed -E 's/  +/  /g'
  grep -oE "sandbox-violation: [a-z_]+ denied|other processes seen: [0-9]+, memories opened: [0-9]+|files found: [0-9]+, opened for writing: [0-9]+|\[[0-9]+ bytes printed; the last [0-9]+ kept\]" report.txt | sort | uniq -c
  pgrep -x kc-attack-orph >/dev/null && echo "an orphan outlived the run" || echo "no orphan left"
  echo "== PyTorch attacks on CUDA (--sandbox strict)"
  for m in ModelNew ModelPtrace ModelSocket ModelKill ModelPoison ModelForge ModelNew; do
    KC_TORCH_DEVICE=cuda "$OLDPWD/$KC" check --op relu --impl "torch_attacks.py:$m" --backend exec --dtype f32 --dims R=1..2 \
      --timeout 120 --sandbox strict > out.txt 2>&1
    rc=$?
    verdict=$(awk '/^total /{for(i=1;i<=NF;i++) if ($i ~ /^(PASS|FAIL|ERROR|CRASH|TIMEOUT)$/) v=$i} END{print v}' out.txt)
    why=$(grep -m1 -oE "sandbox-violation: [a-z_]+ denied|files opened for writing: [0-9]+|error: .{0,120}" out.txt)
    echo "$m: $verdict (exit $rc)${why:+  $why}"
  done
)
echo "== the cell's cost on CUDA"
KC="$KC" KC_BENCH_BACKEND=cuda bash bench/sandbox_bench.sh 3
