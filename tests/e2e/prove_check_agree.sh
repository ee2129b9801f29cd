# The prove/check differential (prove_check_agree.py says how): for every standard op's
# reference kernel and every calibration kernel that must pass, prove's "a correct
# implementation passes" (blind-band-correct: ok) holds exactly when check passes the kernel.
# Undecided (a timeout, unknown, a skipped obligation, a check that only skipped) is listed as
# such, never counted as agreement; a disagreement exits 1. The time limit is generous: only
# the blind-band-correct obligations run. Three take about the limit or more on a loaded 2-core
# machine and are not asked (--slow), so that solver time never flips a line:
# conv_transpose3d's (36 s to over 60 s), group_norm's and conv2d_depthwise_separable's
# (over 2 and 3 minutes).
python3 prove_check_agree.py "$KC" ../.. "$WORK" --timeout 60 --slow std.op.conv_transpose3d@1 \
  --slow std.op.group_norm@1 --slow std.op.conv2d_depthwise_separable@1
rc=$?; [[ $rc -ne 0 ]] && echo "[exit $rc]"
echo "--- given pairs: a one-ulp tolerance (prove_one_ulp.sh); a kernel that does not build is undecided"
printf 'int kc_rsqrt_f32(void) { return }\n' >"$WORK/broken.c"
python3 prove_check_agree.py "$KC" ../.. "$WORK/pairs" --timeout 10 -I data \
  --pair user.rsqrt-f32@1=kernels/rsqrt_two_roundings.c:kc_rsqrt_f32 \
  --pair user.rsqrt-bf16@1=kernels/rsqrt_two_roundings.c:kc_rsqrt_bf16 \
  --pair user.rsqrt-f32@1="$WORK/broken.c"
rc=$?; [[ $rc -ne 0 ]] && echo "[exit $rc]"
exit 0
