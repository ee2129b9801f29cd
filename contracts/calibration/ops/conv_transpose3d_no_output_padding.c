/* Violating kc_conv_transpose3d (std.op.conv_transpose3d@1): the output extent is computed
 * without the output padding, (L - 1) S - 2 P + D (K - 1) + 1, so the last Q positions along
 * each axis are never written, as a kernel that sizes its grid from the input does. With no
 * output padding it is the reference; with Q > 0 on an axis those cells keep whatever the
 * buffer held: the checker's built-in unwritten-cells. */
#define KC_CT_COMPUTED(t, len, q) ((t) < (len) - (q))
#include "../../../stdlib/ops/kernels/conv_transpose.c"
