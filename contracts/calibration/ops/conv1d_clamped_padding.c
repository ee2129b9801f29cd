/* Violating kc_conv1d (std.op.conv1d@1): a tap in the zero padding reads the nearest edge
 * element instead of adding nothing (replicate padding where the op asks for zeros), as a
 * kernel that clamps its load index to stay in bounds does. Without padding it is the
 * reference; at P > 0 every window that reaches past an end is wrong: signature
 * zero-padding-ignored. */
#define KC_CONV_OUTSIDE(at, len) ((at) = (at) < 0 ? 0 : (len) - 1, 1)
#include "../../../stdlib/ops/kernels/conv.c"
