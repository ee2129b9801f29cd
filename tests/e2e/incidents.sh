# Each documented incident (contracts/incidents/*.md) quotes the command that reproduces it
# and the line of signatures the case matches (`matches:`); the quoted line must be what the checker prints.
for md in ../../contracts/incidents/*.md; do
  cmd="$(grep -m1 '^\$ kcontract check' "$md" | sed 's/^\$ kcontract //')"
  quoted="$(grep -m1 -E '^    matches: ' "$md")"
  (cd ../.. && "$KC" $cmd >"$WORK/out" 2>&1)
  if grep -qxF -- "$quoted" "$WORK/out"; then
    echo "$(basename "$md"): the checker prints '${quoted#    }'"
  else
    echo "$(basename "$md"): the checker does NOT print '${quoted#    }'"
    grep -E '^    matches: ' "$WORK/out" | sort | uniq -c
  fi
done
