#!/usr/bin/env bash
# Mutation analysis of the CUDA examples against their own contracts on a GPU (issue 25,
# docs/mutate.md "Mutants made here, run elsewhere"). The GPU machine has no libclang, so:
#   scripts/gpu_check_mutate.sh emit            # here: the mutant sets into bundle/mutate-sets/
#   scripts/gpu_check_mutate.sh run [NAME...]   # there (bundle carried): each set on --backend cuda
# run writes $OUT/mutate/NAME.json (the report) and NAME.txt (the score lines and survivors).
# MAX_MEMORY (default 512M) skips larger cases, as the host bench does; JOBS (default 8)
# mutants at a time; TIMEOUT (default 20) seconds a run of a case may take.
set -uo pipefail
cd "$(dirname "$0")/.."
KC="${KC:-bundle/kcontract}"
sets=bundle/mutate-sets
examples="relu:kc_acme_relu matmul:kc_acme_gemm softmax:kc_acme_softmax layernorm:kc_acme_layernorm"
# What each kernel claims (examples/suite_cuda.yaml's supports): its mutants are scored on those
# cases only, as the unmutated kernel refuses the others (matmul and layernorm take f32 only).
claims() {
  case "$1" in
    relu) echo "" ;;
    softmax) echo "--dtype f32 --dims R=1..64,H=1..4097" ;;
    matmul) echo "--dtype f32 --dims M=1..128,N=1..257,K=1..4096" ;;
    layernorm) echo "--dtype f32 --dims R=1..512,H=1..4097" ;;
  esac
}
mode="${1:-run}"
shift || true
case "$mode" in
  emit)
    mkdir -p "$sets"
    for e in $examples; do
      name="${e%%:*}"
      "${KC_HERE:-build/kcontract}" mutate "examples/$name/$name.cu:${e#*:}" "examples/$name/$name.kcontract" \
        --emit "$sets/$name.json" | tail -2
    done
    ;;
  run)
    out="${OUT:-/tmp}/mutate"
    mkdir -p "$out"
    for e in $examples; do
      name="${e%%:*}"
      [[ $# -eq 0 || " $* " == *" $name "* ]] || continue
      start=$(date +%s)
      "$KC" mutate "examples/$name/$name.cu:${e#*:}" "examples/$name/$name.kcontract" --from "$sets/$name.json" \
        $(claims "$name") --backend cuda --jobs "${JOBS:-8}" --max-memory "${MAX_MEMORY:-512M}" --timeout "${TIMEOUT:-20}" \
        --progress --format json --out "$out/$name.json" > "$out/$name.txt" 2>&1
      rc=$?
      python3 - "$out/$name.json" >> "$out/$name.txt" <<'PY' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))
for m in r["mutants"]:
    if m.get("outcome") == "survived":
        s = m.get("suggestion") or {}
        print("survived", m["id"], m["family"], m["description"], "| suggestion:", s.get("change") or "none")
PY
      echo "== $name: exit $rc, $(( $(date +%s) - start )) s"
      cat "$out/$name.txt"
    done
    ;;
  *) echo "usage: scripts/gpu_check_mutate.sh emit|run [NAME...]" >&2; exit 2 ;;
esac
