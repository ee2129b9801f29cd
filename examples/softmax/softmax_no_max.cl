// acme_softmax, DELIBERATELY BUGGY (examples/kernels.md): the structure of softmax.cl, but
// no row maximum is subtracted and the exponentials are taken in f32, exp(float), which
// overflows to +Inf for x > 88.72: the row sum is then +Inf and the row comes out NaN or 0.
// The contract's uniform(90, 120) inputs catch it (`overflow` signature).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void softmax_rows(__global const float* x, __global float* y, long R, long H, long xr, long xh, long yr,
                           long yh) {
  long r = get_global_id(0);
  if (r >= R) return;
  __global const float* xrow = x + r * xr;
  __global float* yrow = y + r * yr;
  double s = 0.0;
  for (long h = 0; h < H; ++h) s += (double)exp(xrow[h * xh]);  // BUG: no max, f32 exp
  for (long h = 0; h < H; ++h) yrow[h * yh] = (float)((double)exp(xrow[h * xh]) / s);
}
