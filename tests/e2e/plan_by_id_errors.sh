# Unknown IDs, a class named as a contract, and an ambiguous ID are located errors (exit 2).
kc plan acme.gemm@1
echo "--- a version that does not exist"
kc plan -I ../../examples acme.gemm@2
echo "--- a class"
kc plan std.mem.strides@1
echo "--- two files declare one ID"
mkdir -p "$WORK/a" "$WORK/b"
cp ../../examples/matmul/matmul.kcontract "$WORK/a/"
cp ../../examples/matmul/matmul.kcontract "$WORK/b/"
kc plan -I "$WORK/a" -I "$WORK/b" acme.gemm@1
