// acme_softmax, one work-item per row (softmax_cl.c launches it). As in softmax.c: the row
// maximum (NaN as soon as one element is NaN), the exponentials and the row sum in double
// (x - m is exact in double), one division per cell rounded once to f32. Any strides.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

float nan_max(float a, float b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  return a > b ? a : b;
}

__kernel void softmax_rows(__global const float* x, __global float* y, long R, long H, long xr, long xh, long yr,
                           long yh) {
  long r = get_global_id(0);
  if (r >= R) return;
  __global const float* xrow = x + r * xr;
  __global float* yrow = y + r * yr;
  float m = -INFINITY;
  for (long h = 0; h < H; ++h) m = nan_max(m, xrow[h * xh]);
  double md = (double)m, s = 0.0;
  for (long h = 0; h < H; ++h) s += exp((double)xrow[h * xh] - md);
  for (long h = 0; h < H; ++h) yrow[h * yh] = (float)(exp((double)xrow[h * xh] - md) / s);
}
