/* Violating kc_avg_pool2d (std.op.avg_pool2d@1): the window steps by the kernel size, torch's
 * default stride, whatever stride the caller passed (taps past the input are skipped, so it
 * reads nothing outside). Where the stride is the kernel size it is the reference: signature
 * stride-as-kernel. */
#define KC_POOL_STRIDE(s, k) ((void)(s), (k))
#include "../../../stdlib/ops/kernels/pool.c"
