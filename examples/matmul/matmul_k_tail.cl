// acme_gemm, DELIBERATELY BUGGY (examples/kernels.md): matmul.cl, but the K loop visits
// whole tiles only, so the last K % 32 terms of every dot product are dropped. Bit for bit
// the correct kernel whenever K is a multiple of 32; the contract's K in {1, 7} catches it.
#define KTILE 32

__kernel void gemm(__global const float* a, __global const float* b, __global float* c, long M, long N, long K,
                   long as0, long as1, long bs0, long bs1, long cs0, long cs1) {
  long j = get_global_id(0), i = get_global_id(1);
  if (i >= M || j >= N) return;
  float acc = 0.0f;
  for (long k0 = 0; k0 + KTILE <= K; k0 += KTILE) {  // BUG: whole tiles only
    long kn = K - k0 < KTILE ? K - k0 : KTILE;
    float part = 0.0f;
    for (long kk = 0; kk < kn; ++kk) part += a[i * as0 + (k0 + kk) * as1] * b[(k0 + kk) * bs0 + j * bs1];
    acc += part;
  }
  c[i * cs0 + j * cs1] = acc;
}
