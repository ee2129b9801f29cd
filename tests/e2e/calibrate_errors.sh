# Calibration manifests with mistakes get located errors (exit 2), and a pair whose violating
# kernel is in fact correct shows the state it cannot prove (exit 1).
mkdir -p "$WORK/cal"
cp ../../contracts/calibration/relu.c "$WORK/cal/"
cp ../../contracts/calibration/cal_views.h "$WORK/cal/"
cat >"$WORK/cal/bad_key.yaml" <<'YAML'
kcontract-calibration: 1
classes:
  - class: std.exc.nan-propagation@1
    contract: std.cal.relu@1
    conforming: relu.c
    violating: relu.c
    signature: nan-swallowed
    expected: fail
YAML
kc calibrate "$WORK/cal/bad_key.yaml"
cat >"$WORK/cal/not_applied.yaml" <<'YAML'
kcontract-calibration: 1
classes:
  - class: std.exc.overflow@1
    contract: std.cal.relu@1
    conforming: relu.c
    violating: relu.c
    signature: no-such-signature
YAML
kc calibrate "$WORK/cal/not_applied.yaml"
cat >"$WORK/cal/correct_as_violating.yaml" <<'YAML'
kcontract-calibration: 1
classes:
  - class: std.exc.nan-propagation@1
    contract: std.cal.relu@1
    conforming: relu.c
    violating: relu.c
    signature: nan-swallowed
YAML
kc calibrate "$WORK/cal/correct_as_violating.yaml"
kc calibrate std.no.such-class
# Op pairs (`ops:`): an op that is not a standard op, an unknown key, allclose-dims naming a
# dim the op's kernel lacks or a size its scope does not admit.
cp ../../contracts/calibration/ops/relu_nan.c "$WORK/cal/"
cat >"$WORK/cal/bad_op.yaml" <<'YAML'
kcontract-calibration: 1
ops:
  - op: no_such_op
    conforming: relu.c
    violating: relu_nan.c
    signature: nan-swallowed
YAML
kc calibrate "$WORK/cal/bad_op.yaml"
cat >"$WORK/cal/bad_op_key.yaml" <<'YAML'
kcontract-calibration: 1
ops:
  - op: relu
    contract: std.op.relu@1
    conforming: relu.c
    violating: relu_nan.c
    signature: nan-swallowed
YAML
kc calibrate "$WORK/cal/bad_op_key.yaml"
cat >"$WORK/cal/bad_dims.yaml" <<'YAML'
kcontract-calibration: 1
ops:
  - op: relu
    conforming: relu.c
    violating: relu_nan.c
    signature: nan-swallowed
    allclose-dims: {H: 32, C: 0}
YAML
kc calibrate "$WORK/cal/bad_dims.yaml"
sed -i 's/C: 0/C: 4294967296/' "$WORK/cal/bad_dims.yaml"
kc calibrate "$WORK/cal/bad_dims.yaml"
cat >"$WORK/cal/empty.yaml" <<'YAML'
kcontract-calibration: 1
classes: []
YAML
kc calibrate "$WORK/cal/empty.yaml"
kc calibrate std.op.no_such_op
# `dtype:` that is no dtype, and one no dtype variable of the contract takes.
cat >"$WORK/cal/bad_dtype.yaml" <<'YAML'
kcontract-calibration: 1
ops:
  - op: relu
    conforming: relu.c
    violating: relu_nan.c
    signature: nan-swallowed
    dtype: f17
YAML
kc calibrate "$WORK/cal/bad_dtype.yaml"
cat >"$WORK/cal/untaken_dtype.yaml" <<'YAML'
kcontract-calibration: 1
ops:
  - op: relu
    conforming: relu.c
    violating: relu_nan.c
    signature: nan-swallowed
    dtype: i8
YAML
kc calibrate "$WORK/cal/untaken_dtype.yaml"
