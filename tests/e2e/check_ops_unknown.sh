# An op the standard library does not define: exit 2, with the known ops listed; the same
# from a suite's `op:`.
kc check --op softmaxx --impl ../../stdlib/ops/kernels/softmax.c
cat > "$WORK/suite.yaml" <<YAML
kcontract-suite: 1
kernels:
  - impl: k.c
    op: gemm
YAML
kc check "$WORK/suite.yaml"
cat > "$WORK/both.yaml" <<YAML
kcontract-suite: 1
kernels:
  - impl: k.c
    op: relu
    contract: std.op.relu
YAML
kc check "$WORK/both.yaml"
