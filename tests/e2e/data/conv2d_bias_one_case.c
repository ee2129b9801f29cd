/* The reference conv2d_bias, wrong by 1% (plus one) in its first output cell on one input
 * shape only (x of 5 x 8): a stand-in for a kernel that fails one case for a reason that has
 * nothing to do with padding, as torch's bf16 convolution on CUDA did. That case has padding,
 * as most of conv2d_bias's cases do, so `fails only when PH > 0 || PW > 0` holds on it by
 * chance. e2e/diagnosis_reruns: the diagnosis must not name zero-padding-ignored. */
#define kc_conv2d_bias reference_conv2d_bias
#include "../../../stdlib/ops/kernels/conv.c"
#undef kc_conv2d_bias

int kc_conv2d_bias(kc_tensor* args, int32_t nargs, void* stream) {
  const int rc = reference_conv2d_bias(args, nargs, stream);
  kc_tensor* y = &args[nargs - 1];
  if (rc == KC_OK && args[0].shape[2] == 5 && args[0].shape[3] == 8) kc_st(y, 0, kc_ld(y, 0) * 1.01f + 1.0f);
  return rc;
}
