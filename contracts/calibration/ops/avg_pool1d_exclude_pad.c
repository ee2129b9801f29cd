/* Violating kc_avg_pool1d (std.op.avg_pool1d@1): the sum divided by the number of taps inside
 * the input (count_include_pad=False) where torch's default divides by the whole window.
 * Without padding it is the reference; windows that reach into the padding come out too
 * large in magnitude: signature count-excludes-padding. */
#define KC_POOL_DIVISOR(window, inside) ((void)(window), (inside))
#include "../../../stdlib/ops/kernels/pool.c"
