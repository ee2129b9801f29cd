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
