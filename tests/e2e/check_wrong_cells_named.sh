# Signatures whose wrong cells name the cell's indices (docs/language.md §9.6): a bias added
# to the first row only is named first-row-only, one read from b[0] alone bias-not-broadcast;
# the correct kernel passes.
for entry in kc_bias kc_bias_first_row_only kc_bias_scalar; do
  kc check data/bias_rows.kcontract --impl "kernels/bias_rows.c:$entry" --max-memory 64M >"$WORK/out.txt"
  sed -n '/^kernel /{n;p}; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
done
