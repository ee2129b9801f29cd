# The CUDA calibration kernels on the ptx backend (docs/ptx.md): every pair of
# contracts/calibration/cuda/suite_ptx.yaml — each `backend: cuda` pair of
# contracts/calibration.yaml — with the verdict and signature the H200 gives, the
# index-width pairs' large-index cases included (check_ptx_large_index shows them case by
# case). The grid-y pair of grid_rows.yaml (65,537 rows) is check_ptx_grid_rows, for time.
drop="softmax_grid_y.cu softmax_rows.cu"
awk -v list=" $drop " -v drop=1 -f data/suite_entries.awk ../../contracts/calibration/cuda/suite_ptx.yaml >"$WORK/calibration.yaml"
cd ../../contracts/calibration/cuda || exit 1
cp "$WORK/calibration.yaml" ./.ptx_e2e_suite.yaml
trap 'rm -f ./.ptx_e2e_suite.yaml; rm -rf "$WORK"' EXIT
kc check .ptx_e2e_suite.yaml --expect --timeout 10 | sed -n '/^kernel /,$p'
