/* Violating kc_softmax (std.op.softmax@1): the host port of a CUDA softmax that launches one
 * block per row along grid y, <<<dim3(1, R), 256>>>, and never checks the launch. CUDA caps
 * gridDim.y at 65,535, so past that many rows the launch fails with
 * cudaErrorInvalidConfiguration and nothing is written; the kernel still returns 0. Here a
 * "launch" is the same grid: it runs when R <= 65,535 and does nothing otherwise. Correct at
 * every friendly shape (64 x 256); the grid-rows case (R = 65,537) leaves every output cell
 * unwritten. The CUDA original is stdlib/ops/kernels/cuda/buggy/softmax_grid_y.cu. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define KC_GRID_Y_MAX 65535

static void softmax_row(const kc_tensor* x, const kc_tensor* y, int64_t r) {
  const int64_t H = x->shape[1], xb = r * x->strides[0], yb = r * y->strides[0];
  float m = -INFINITY;
  for (int64_t h = 0; h < H; ++h) {
    float v = kc_ld(x, xb + h * x->strides[1]);
    if (isnan(v) || v > m) m = v;
    if (isnan(v)) break;
  }
  float s = 0.0f;
  for (int64_t h = 0; h < H; ++h) s += expf(kc_ld(x, xb + h * x->strides[1]) - m);
  const float inv = 1.0f / s;
  for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], expf(kc_ld(x, xb + h * x->strides[1]) - m) * inv);
}

/* cudaLaunchKernel's configuration check, then the blocks of grid y, one row each. */
static int launch_grid_y(const kc_tensor* x, const kc_tensor* y, int64_t gridY) {
  if (gridY > KC_GRID_Y_MAX) return 9; /* cudaErrorInvalidConfiguration: no block runs */
  for (int64_t r = 0; r < gridY; ++r) softmax_row(x, y, r);
  return 0;
}

int kc_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  (void)launch_grid_y(x, y, x->shape[0]); /* the launch error, ignored */
  return KC_OK;
}
