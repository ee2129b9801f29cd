# Rows past CUDA's grid y limit on the ptx backend (docs/ptx.md): the pair of
# contracts/calibration/cuda/grid_rows.yaml at R = 65,537, as suite_ptx.yaml holds it. The
# kernel launching one block per row in grid y gets the launch error the H200 gives and leaves
# every row unwritten: FAIL, named grid-limit by the re-runs at R = 65,535 and 65,536; its twin,
# striding over the rows, interprets 65,535 blocks of 65,537 rows and passes.
keep="softmax_grid_y.cu softmax_rows.cu"
awk -v list=" $keep " -f data/suite_entries.awk ../../contracts/calibration/cuda/suite_ptx.yaml >"$WORK/grid.yaml"
cd ../../contracts/calibration/cuda || exit 1
cp "$WORK/grid.yaml" ./.ptx_e2e_grid_suite.yaml
trap 'rm -f ./.ptx_e2e_grid_suite.yaml; rm -rf "$WORK"' EXIT
kc check .ptx_e2e_grid_suite.yaml --expect --timeout 400 >"$WORK/out.txt" 2>&1
rc=$?
grep -E '^    (cause|re-run): .*(R=65535|grid)' "$WORK/out.txt"
sed -n "/^kernel /,\$p" "$WORK/out.txt"
exit $rc
