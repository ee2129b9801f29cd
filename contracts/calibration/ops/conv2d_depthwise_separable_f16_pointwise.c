/* Violating kc_conv2d_depthwise_separable (std.op.conv2d_depthwise_separable@1): the pointwise
 * 1 x 1 convolution sums its C products in an f16 register (the depthwise cells are f32). On a
 * few channels the error stays inside allclose; over many channels the running sum drops the
 * products' low bits: signature low-precision-accumulator (it grows with C). */
#define KC_CONV_POINTWISE_ACC _Float16
#include "../../../stdlib/ops/kernels/conv.c"
