/* Violating kc_max_pool3d (std.op.max_pool3d@1): the window's taps are taken contiguous (at
 * k, not k D), as a kernel written before dilation was supported does; the output's extent
 * still follows the dilation. With D = 1 it is the reference: signature dilation-ignored. */
#define KC_POOL_DILATION(d) ((void)(d), (int64_t)1)
#include "../../../stdlib/ops/kernels/pool.c"
