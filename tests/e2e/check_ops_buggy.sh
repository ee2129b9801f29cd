# Three-state calibration of the standard ops: each violating kernel (stdlib/ops/kernels/
# buggy/) passes a plain allclose test (atol = rtol = 1e-2, randn, one friendly shape) and
# fails the op's standard contract with a named signature. The suite names the ops with
# `op: NAME`; --expect exits 0 when every kernel gets the verdict the suite expects.
kc check ../../stdlib/ops/kernels/calibration.yaml --expect --max-memory 1G | sed -n '/^kernel /,$p'
