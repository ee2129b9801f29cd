# The CUDA calibration kernels on the ptx backend (docs/ptx.md): the contract state of the
# pairs whose bugs only a GPU run showed until now, with the verdict and signature the H200
# gives (contracts/calibration.yaml): atomics in the order the blocks finish
# (nondeterministic: the interpreter varies the order of CTAs, warps and a warp's atomics from
# run to run) and a work split chosen by the batch size (batch-variant), with their conforming
# twin. A share of contracts/calibration/cuda/suite_ptx.yaml, for CI's time;
# scripts/ptx_check.sh runs all of it (and the host calibration has the other classes).
keep="rowsum.cu rowsum_atomic.cu rowsum_batch_split.cu"
awk -v keep=" $keep " '
  /^  - name:/ { if (entry != "" && match(entry, /impl: [^ \n]*/)) { impl = substr(entry, RSTART + 6, RLENGTH - 6); if (index(keep, " " impl " ")) out = out entry } entry = "" }
  /^  / { entry = entry $0 "\n"; next }
  { head = head $0 "\n" }
  END { if (match(entry, /impl: [^ \n]*/)) { impl = substr(entry, RSTART + 6, RLENGTH - 6); if (index(keep, " " impl " ")) out = out entry } printf "%s%s", head, out }
' ../../contracts/calibration/cuda/suite_ptx.yaml >"$WORK/calibration.yaml"
cd ../../contracts/calibration/cuda || exit 1
cp "$WORK/calibration.yaml" ./.ptx_e2e_suite.yaml
trap 'rm -f ./.ptx_e2e_suite.yaml; rm -rf "$WORK"' EXIT
kc check .ptx_e2e_suite.yaml --expect | sed -n '/^kernel /,$p'
