# The example kernels on the OpenCL backend, run on PoCL's CPU device in CI, and the
# agreement of backends (docs/backends.md, "Backends must agree"):
#  1. examples/suite_opencl.yaml: the correct softmax, matmul and relu PASS; each buggy twin
#     FAILs with the signature its contract names (overflow, k-tail, nan-swallowed);
#  2. the same contracts on the host (examples/suite.yaml) give every case the same verdict
#     and the same signatures as on OpenCL (layernorm has no OpenCL twin: not compared).
export PATH="/usr/bin:$PATH"
kc check ../../examples/suite_opencl.yaml --expect --format jsonl --out "$WORK/opencl.jsonl" | sed -n '/^kernel /,$p'
kc check ../../examples/suite.yaml --format jsonl --out "$WORK/host.jsonl" >/dev/null
python3 ../../scripts/compare_backends.py "$WORK/host.jsonl" "$WORK/opencl.jsonl"
