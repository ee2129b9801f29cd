# The standard op library's conforming host kernels (stdlib/ops/kernels/) against their ops'
# standard contracts, over each op's whole plan, are checked twice elsewhere, so they are not
# run a third time here:
#   - e2e/calibrate_all: every op's calibration pair starts with "conforming passes the
#     contract", the reference kernel against the op's newest contract at every dtype;
#   - e2e/prove_check_agree: `check` of every op's reference kernel against every version of
#     its contract, held to what `prove` says of a correct implementation.
# What only this case shows: `check --op` with the default entry (kc_NAME) and the op named
# by its qualified module name, std.ops.NAME. The summary table (header and row) and
# "[exit N]" when the check exits nonzero.
K=../../stdlib/ops/kernels
kc check --op std.ops.relu --impl "$K/elementwise.c" --max-memory 1G >"$WORK/out.txt"
sed -n '/^kernel /{N;p}; /^mistrusted: /p; /^\[exit/p' "$WORK/out.txt"
kc check --op sigmoid --impl "$K/elementwise.c" --max-memory 1G >"$WORK/out.txt"
sed -n '/^kernel /{N;p}; /^mistrusted: /p; /^\[exit/p' "$WORK/out.txt"
