# `--backend opencl` where there is no OpenCL platform (no ICD registered: OCL_ICD_VENDORS
# points at an empty folder) or no device matching KC_OPENCL_DEVICE: every case is SKIPPED
# with the reason, none PASSes, and the run exits 0 (docs/backends.md).
mkdir "$WORK/no-icds"
OCL_ICD_VENDORS="$WORK/no-icds" kc check ../../examples/relu/relu.kcontract --impl ../../examples/relu/relu_cl.c \
  --backend opencl --dtype f32 >"$WORK/none.txt"
tail -3 "$WORK/none.txt"
grep -m1 -A1 '^SKIPPED' "$WORK/none.txt" | tail -1
echo "PASS cases: $(grep -c '^PASS' "$WORK/none.txt")"
KC_OPENCL_DEVICE=no-such-device kc check ../../examples/relu/relu.kcontract --impl ../../examples/relu/relu_cl.c \
  --backend opencl --dtype f32 >"$WORK/nomatch.txt"
grep -m1 -A1 '^SKIPPED' "$WORK/nomatch.txt" | tail -1 | sed -E 's/\(devices: .*\)/(devices: ...)/'
echo "PASS cases: $(grep -c '^PASS' "$WORK/nomatch.txt")"
