/* Violating kc_conv2d (std.op.conv2d@1): every output channel reads input channels 0..CG-1,
 * the first group's, as a kernel written for groups = 1 that takes CG from the weight's shape
 * does. With one group it is the reference; with G > 1 the output channels of every later
 * group (o >= OG) are wrong: signature groups-ignored. */
#define KC_CONV_GROUP_BASE(o, OG, CG) ((void)(o), (void)(OG), (int64_t)0)
#include "../../../stdlib/ops/kernels/conv.c"
