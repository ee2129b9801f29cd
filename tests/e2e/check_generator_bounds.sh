# Value-generator bounds that use dims (docs/language.md §11.1): labels drawn in
# 0..C - 1 at every C. The correct gather passes; one that keeps labels in a byte fails
# only where a label passes 255 (C = 1000). Bounds that leave nothing to draw, or that are
# not whole numbers, make the case an ERROR that says so.
for entry in kc_pick kc_pick_byte; do
  kc check data/pick_label.kcontract --impl "kernels/pick_label.c:$entry" --max-memory 64M >"$WORK/out.txt"
  sed -n '/^kernel /{n;p}; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
  grep '^FAIL' "$WORK/out.txt" | sed -E 's/ +[0-9.]+ s$//; s/  +/  /g'
done
kc plan data/pick_label.kcontract | grep -E '^  #(1|2|3) '
for bound in 'integers(C, C - 1)' 'integers(0, C / 3)'; do
  sed "s|integers(floor(C / 2), C - 1)|$bound|" data/pick_label.kcontract >"$WORK/bounds.kcontract"
  kc check "$WORK/bounds.kcontract" --impl kernels/pick_label.c:kc_pick --max-memory 64M >"$WORK/out.txt"
  grep -m1 -A1 '^ERROR' "$WORK/out.txt" | sed -E 's/ +[0-9.]+ s$//; s/  +/  /g'
done
# A constant bound breaks the precondition wherever C <= 99: those cases are MISTRUSTED and
# the kernel is not run on them (it would return 4 on a label past C, an ERROR).
sed "s|integers(0, C - 1) \| integers(floor(C / 2), C - 1)|integers(0, 99)|" data/pick_label.kcontract >"$WORK/constant.kcontract"
kc check "$WORK/constant.kcontract" --impl kernels/pick_label.c:kc_pick --max-memory 64M >"$WORK/out.txt"
grep -m1 -A1 '^MISTRUSTED' "$WORK/out.txt" | sed -E 's/ +[0-9.]+ s$//; s/  +/  /g'
sed -n '/^kernel /{n;p}; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
