# Inputs that meet a precondition by construction (docs/language.md §11.2): a lower-
# triangular matrix-vector product. With a ~ triangular(lower) every case runs: the correct
# kernel passes, one that skips the diagonal fails. With a ~ normal(0, 1) the inputs break
# the precondition: every case is MISTRUSTED and the kernel is not run.
for entry in kc_trmv kc_trmv_no_diagonal; do
  kc check data/trmv_lower.kcontract --impl "kernels/trmv_lower.c:$entry" --max-memory 64M >"$WORK/out.txt"
  sed -n '/^kernel /{n;p}; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
done
kc plan data/trmv_lower.kcontract | grep -E '^  #[0-9]+ ' | sed -E 's/  +/  /g' | head -3
sed 's/values a ~ triangular(lower)/values a ~ normal(0, 1)/' data/trmv_lower.kcontract >"$WORK/dense.kcontract"
kc check "$WORK/dense.kcontract" --impl kernels/trmv_lower.c:kc_trmv --max-memory 64M >"$WORK/out.txt"
grep -m1 -A1 '^MISTRUSTED' "$WORK/out.txt" | sed -E 's/ +[0-9.]+ s$//; s/  +/  /g'
sed -n '/^kernel /{n;p}; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
