# Results beyond the output dtype's range (docs/checking.md, "Results beyond the dtype's
# range"): std.op.sum at f16 on rows whose exact sum is far above 65504. A kernel that
# writes +Inf there (the sum rounded to f16) PASSes; one that saturates to 65504 FAILs, as
# does one whose f16 accumulator loses the sum on the way.
for entry in kc_sum_f32_acc kc_sum_saturate kc_sum_f16_acc; do
  kc check --op sum --impl "kernels/sum_f16_range.c:$entry" --dtype f16 --max-memory 1G >"$WORK/out.txt"
  sed -n '/^kernel /{n;p}; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
  grep -m1 '^FAIL' "$WORK/out.txt" | sed -E 's/ +[0-9.]+ s$//; s/  +/  /g'
  grep -m1 ' at index ' "$WORK/out.txt" | sed -E 's/^ +/  /'
done
