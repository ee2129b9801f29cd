/* Violating kc_avg_pool3d (std.op.avg_pool3d@1): the sum divided by the number of taps inside
 * the input (count_include_pad=False) where torch's default divides by the whole window:
 * signature count-excludes-padding. */
#define KC_POOL_DIVISOR(window, inside) ((void)(window), (inside))
#include "../../../stdlib/ops/kernels/pool.c"
