/* Violating kc_conv2d_bias (std.op.conv2d_bias@1): each output cell's running sum is an f16
 * that starts at the bias (a __half register, as a kernel that accumulates in the storage type
 * of f16 tensors does); each product is formed in f32 and rounded to f16 before it is added.
 * On a few channels and a small bias the error stays inside allclose; over many channels, or
 * from a large bias, the sum loses the products' low bits: signature
 * low-precision-accumulator. */
#define KC_CONV_CHANNEL_ACC _Float16
#include "../../../stdlib/ops/kernels/conv.c"
