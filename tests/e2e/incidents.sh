# Each documented incident (contracts/incidents/NAME.md) is what `kcontract incident` writes
# from a real run (scripts/incidents.sh): run again here, it must be the same, apart from
# the environment block (the machine's own facts).
mkdir -p "$WORK/out"
(cd ../.. && scripts/incidents.sh "$KC" "$WORK/out") | sed "s|$WORK|<work>|"
for md in ../../contracts/incidents/*.md; do
  case "$md" in *.notes.md) continue ;; esac
  name="$(basename "$md")"
  if diff <(sed '/^## Environment/,$d' "$md") <(sed '/^## Environment/,$d' "$WORK/out/$name") >"$WORK/diff"; then
    echo "$name: as committed; environment: $(sed -n '/^## Environment/,$p' "$WORK/out/$name" | grep -c '^- \*\*') facts"
  else
    echo "$name: differs from what kcontract incident writes now:"; cat "$WORK/diff"
  fi
done
echo "--- errors"
kc incident "$WORK/none.jsonl" --case 1
printf '{"x":1}\n' >"$WORK/bad.jsonl"
kc incident "$WORK/bad.jsonl" --case 1
