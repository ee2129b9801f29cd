/* Violating kc_conv_transpose2d (std.op.conv_transpose2d@1): every output channel gathers from
 * input channels 0..CG-1 and their weights, the first group's, as a kernel written for
 * groups = 1 does. With one group it is the reference; with G > 1 the output channels of every
 * later group (o >= OG) are wrong: signature groups-ignored. */
#define KC_CT_GROUP_BASE(o, OG, CG) ((void)(o), (void)(OG), (int64_t)0)
#include "../../../stdlib/ops/kernels/conv_transpose.c"
