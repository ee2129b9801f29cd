# The op pairs of contracts/calibration.yaml (`ops:`), named the ways a user names them: an
# op's contract with its version, and an op by its module's name. Each violating kernel
# (contracts/calibration/ops/) passes a plain allclose and is caught by the op's standard
# contract with its signature; the others it names are listed ("also ..."). Every op pair
# runs in tests/e2e/calibrate_all.sh; these two show the selection and allclose-dims
# (cumsum's baseline is 64 x 32).
kc calibrate std.op.relu@1 --backend host
kc calibrate std.ops.cumsum
