# Integer quotients (docs/language.md, Types: "Integer division"): an int4 dequantize whose oracle
# indexes q[r, floor(c / 2)] and takes nibbles with floor. The correct kernel passes; one
# that unpacks the high nibble first, and one that reads nibbles as two's complement, fail.
for entry in kc_dequant kc_dequant_swapped kc_dequant_signed; do
  kc check data/dequant_int4.kcontract --impl "kernels/dequant_int4.c:$entry" --max-memory 64M >"$WORK/out.txt"
  sed -n '/^kernel /{n;p}; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
  grep -m1 ' at index \|^    y\[' "$WORK/out.txt" | sed -E 's/^ +/  /'
done
