# The f16 GEMM pair, three states at f16 (the calibration manifest's op pairs run at f32):
# the reference kernel (f32 accumulator) is not failed by std.op.matmul at f16; a GEMM whose
# running sum is rounded to f16 every 16 products (a tensor-core MMA with an f16
# accumulator) passes a plain allclose at f16, and std.op.matmul catches it there with
# low-precision-accumulator.
ref=../../stdlib/ops/kernels/matmul.c
bad=../../contracts/calibration/ops/matmul_f16_acc.c
echo "== conforming: std.op.matmul at f16"
kc check --op matmul --dtype f16 --impl $ref:kc_matmul --max-memory 1G | sed -n '/^kernel /,/^total/p'
echo "== violating: a plain allclose at f16"
kc check data/allclose_matmul_f16.kcontract --impl $bad:kc_matmul | sed -n '/^kernel /,/^total/p'
echo "== violating: std.op.matmul at f16"
kc check --op matmul --dtype f16 --impl $bad:kc_matmul --max-memory 1G | sed -n '/^kernel /,/^total/p'
