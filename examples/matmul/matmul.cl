// acme_gemm, one work-item per cell of c (matmul_cl.c launches it). As in matmul.c: f32
// accumulation in tiles of KTILE = 32 products, each tile's partial added to the running
// total; the last tile is partial when K % 32 != 0. 64-bit indices, any strides.
#define KTILE 32

__kernel void gemm(__global const float* a, __global const float* b, __global float* c, long M, long N, long K,
                   long as0, long as1, long bs0, long bs1, long cs0, long cs1) {
  long j = get_global_id(0), i = get_global_id(1);
  if (i >= M || j >= N) return;
  float acc = 0.0f;
  for (long k0 = 0; k0 < K; k0 += KTILE) {
    long kn = K - k0 < KTILE ? K - k0 : KTILE;
    float part = 0.0f;
    for (long kk = 0; kk < kn; ++kk) part += a[i * as0 + (k0 + kk) * as1] * b[(k0 + kk) * bs0 + j * bs1];
    acc += part;
  }
  c[i * cs0 + j * cs1] = acc;
}
