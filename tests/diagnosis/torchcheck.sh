#!/bin/sh
# Run one torch corpus implementation through the exec backend on the CPU and print the
# summary row:  tests/diagnosis/torchcheck.sh OP torch/NAME.kcexec [extra check options]
op=$1; f=$2; shift 2
mkdir -p /tmp/kc-diag
out=/tmp/kc-diag/$(basename "$f").txt
KC=${KC:-/work/main/build/kcontract}
KC_PYTHON=${KC_PYTHON:-/usr/bin/python3} KC_TORCH_DEVICE=${KC_TORCH_DEVICE:-cpu} \
  nice -n 10 "$KC" check --op "$op" --impl "$f" --backend exec --dtype f32 --timeout 300 --threads 1 "$@" > "$out" 2>&1
printf '%s %s: ' "$op" "$(basename "$f")"
grep -E '^[^ ]+\.kcexec' "$out" | tail -1 | sed 's/  */ /g'
