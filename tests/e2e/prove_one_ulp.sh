# A one-ulp tolerance, y = 1 / sqrt(x) (data/rsqrt_one_ulp.kcontract), and a correct kernel
# that computes sqrtf and the division in f32, then rounds to T (kernels/rsqrt_two_roundings.c).
# prove models those two f32 roundings, so it agrees with check: in f32 one spacing is too
# tight ("a correct implementation can fail", and check fails the correct kernel); in bf16
# the f32 roundings stay inside the last rounding's half spacing (ok, and check passes).
"$KC" prove --timeout 10 data/rsqrt_one_ulp.kcontract >"$WORK/prove.txt" 2>&1
grep -E "^(data/|prove:)" "$WORK/prove.txt" | sed -E 's/ in [0-9.]+ s$//'
for t in f32 bf16; do
  echo "--- $t"
  awk -v id="user.rsqrt-$t@1/blind-band-correct" '$0 == id {on = 1; print; next} on && !/^  / {on = 0} on' \
    "$WORK/prove.txt" | grep -E "^user|A correct|answer:|verdict:" | sed -E 's/ in [0-9.]+ s( \(.*\))?$//'
  kc check "user.rsqrt-$t@1" --impl "kernels/rsqrt_two_roundings.c:kc_rsqrt_$t" -I data >"$WORK/check.txt"
  sed -n '/^kernel /{N;p}; /^\[exit/p' "$WORK/check.txt"
done
