# The index-width calibration pairs' violating kernels on the ptx backend (docs/ptx.md, "Large
# cases"): their large-index cases (2^31 + 1, 2^32 + 1 and 5 x 2^30 elements, 8-40 GiB of
# f32 tensors) run on the streamed path in buffers made real only where touched. An `int n`
# kernel writes nothing, or one cell, there: FAIL with index-overflow, as on the H200, in a
# second. scale_int32's 5 x 2^30 case wraps to n = 2^30, which the interpreter cannot finish
# in --timeout: SKIPPED, with the reason, never PASS. A share of
# contracts/calibration/cuda/suite_ptx.yaml; scripts/ptx_check.sh runs all of it.
keep="scale_int32.cu add_int32.cu"
awk -v list=" $keep " -f data/suite_entries.awk ../../contracts/calibration/cuda/suite_ptx.yaml >"$WORK/large.yaml"
cd ../../contracts/calibration/cuda || exit 1
cp "$WORK/large.yaml" ./.ptx_e2e_large_suite.yaml
trap 'rm -f ./.ptx_e2e_large_suite.yaml; rm -rf "$WORK"' EXIT
kc check .ptx_e2e_large_suite.yaml --expect --timeout 5 >"$WORK/out.txt" 2>&1
rc=$?
grep -E '^(FAIL|SKIPPED|CRASH|ERROR|TIMEOUT) ' "$WORK/out.txt" | sed -E 's/   [0-9.]+ s$//'
grep -E '^    (completeness|cause): ' "$WORK/out.txt"
sed -n "/^kernel /,\$p" "$WORK/out.txt"
exit $rc
