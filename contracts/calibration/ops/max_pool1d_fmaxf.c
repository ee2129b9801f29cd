/* Violating kc_max_pool1d (std.op.max_pool1d@1): the running maximum with fmaxf, which
 * returns the other operand when one is NaN, so a NaN in the window is dropped where torch's
 * max_pool1d returns NaN. Without NaNs it is the reference: signature nan-swallowed. */
#define KC_POOL_MAX(m, v) fmaxf(m, v)
#include "../../../stdlib/ops/kernels/pool.c"
