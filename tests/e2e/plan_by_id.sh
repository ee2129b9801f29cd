# `kcontract plan ID` finds the contract under the -I folders and the shipped library.
kc plan -I ../../examples acme.gemm@1 | head -3
echo "--- without the version, when one version exists"
kc plan -I ../../examples acme.gemm | head -1
echo "--- the same folder twice is one contract, not two"
kc plan -I ../../examples -I ../../examples/matmul acme.gemm@1 | head -1
