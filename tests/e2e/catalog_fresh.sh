# docs/catalog.md is what `kcontract catalog` writes from contracts/: regenerate it with
#   build/kcontract catalog --out docs/catalog.md
kc catalog --out "$WORK/catalog.md"
if diff -u ../../docs/catalog.md "$WORK/catalog.md" >"$WORK/diff"; then
  echo "docs/catalog.md is fresh"
else
  echo "docs/catalog.md is STALE: run build/kcontract catalog --out docs/catalog.md"
  head -40 "$WORK/diff"
fi
kc catalog --format json | grep -c '"id"'
