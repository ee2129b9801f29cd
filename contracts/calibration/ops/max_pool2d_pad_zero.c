/* Violating kc_max_pool2d (std.op.max_pool2d@1): a tap in the padding counts as 0, not -inf,
 * as a kernel that zero-fills its shared-memory tile's halo does. Without padding it is the
 * reference; with padding, a window at the edge that holds only negative values gives 0:
 * signature padding-as-zero. */
#define KC_POOL_MAX_PADDED(v) ((v) = 0.0f, 1)
#include "../../../stdlib/ops/kernels/pool.c"
