// acme_relu, one work-item per element (relu_cl.c). NaN < 0 is false: NaN passes through.
__kernel void relu(__global const float* x, __global float* y, long N, long xs, long ys) {
  long i = get_global_id(0);
  if (i >= N) return;
  float v = x[i * xs];
  y[i * ys] = v < 0.0f ? 0.0f : v;
}
