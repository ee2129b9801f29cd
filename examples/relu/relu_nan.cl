// acme_relu, DELIBERATELY BUGGY (examples/kernels.md): `x > 0 ? x : 0` turns NaN into 0.
__kernel void relu(__global const float* x, __global float* y, long N, long xs, long ys) {
  long i = get_global_id(0);
  if (i >= N) return;
  float v = x[i * xs];
  y[i * ys] = v > 0.0f ? v : 0.0f;  // BUG: NaN becomes 0
}
