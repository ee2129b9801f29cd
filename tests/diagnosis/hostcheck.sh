#!/bin/sh
# Run one host corpus kernel against its op's standard contract and print the summary row:
#   tests/diagnosis/hostcheck.sh OP FILE [extra check options]
# Output goes to /tmp/kc-diag/<file>.txt (the whole report); the summary row to stdout.
op=$1; f=$2; shift 2
mkdir -p /tmp/kc-diag
out=/tmp/kc-diag/$(basename "$f").txt
KC=${KC:-/work/main/build/kcontract}
nice -n 10 "$KC" check --op "$op" --impl "$f" --threads 1 "$@" > "$out" 2>&1
printf '%s %s: ' "$op" "$(basename "$f")"
grep -E '^[^ ]+:kc_' "$out" | tail -1 | sed 's/  */ /g'
