/* Violating kc_conv_transpose1d (std.op.conv_transpose1d@1): a tap's input position
 * (t + P - k D) / S is truncated without checking that S divides t + P - k D, so a tap that
 * falls between two input elements reads the one before it, as a gather kernel that forgets
 * the remainder test does. At stride 1 every tap lands and it is the reference; at S > 1 most
 * output cells gather taps that do not exist: signature stride-remainder-ignored. */
#define KC_CT_LANDS(num, s) ((void)(num), (void)(s), 1)
#include "../../../stdlib/ops/kernels/conv_transpose.c"
