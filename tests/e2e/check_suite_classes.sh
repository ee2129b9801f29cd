# A suite entry opts in to a class its op's standard contract does not apply: a GEMM that
# splits K by batch size (as cuBLAS does) passes std.op.matmul@2 and fails it with
# std.ord.batch-invariance@1 added (`classes:`), as batch-variant.
kc check data/suite_classes.yaml --expect --max-memory 1G | sed -n '/^kernel /,$p'
# std.op.matmul@1 (batch invariance applied) stays resolvable: by ID, and pinned with --op.
kc check std.op.matmul@1 --impl kernels/matmul_split_k_by_batch.c --dtype f32 --max-memory 1G | sed -n '/^kernel /{N;p}'
kc check --op matmul@1 --impl kernels/matmul_split_k_by_batch.c --dtype f32 --max-memory 1G | sed -n '/^kernel /{N;p}'
# An unknown class, and classes on a contract file, are errors.
cat >"$WORK/bad_class.yaml" <<YAML
kcontract-suite: 1
kernels:
  - impl: $PWD/kernels/matmul_split_k_by_batch.c
    op: matmul
    classes: [std.ord.no-such-class@1]
YAML
kc check "$WORK/bad_class.yaml" 2>&1 | sed -n '1p;$p'
cat >"$WORK/file_classes.yaml" <<YAML
kcontract-suite: 1
kernels:
  - impl: $PWD/kernels/matmul_split_k_by_batch.c
    contract: some.kcontract
    classes: [std.ord.batch-invariance@1]
YAML
kc check "$WORK/file_classes.yaml" 2>&1
