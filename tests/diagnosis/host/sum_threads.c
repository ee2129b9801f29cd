/* Diagnosis corpus, CONFORMING twin of sum_threads_atomic.c: a row sum split over 4 POSIX
 * threads; thread t sums the t-th quarter of every row into its own slot per row, and after
 * the join the 4 slots of each row are added in thread order: the same bits on every run. */
#include <pthread.h>
#include <stdlib.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

#define NT 4

typedef struct {
  const kc_tensor* x;
  int64_t h0, h1;
  float* part; /* R slots */
} job;

static void* work(void* p) {
  job* j = (job*)p;
  const int64_t R = j->x->shape[0], xs = j->x->strides[1];
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * j->x->strides[0];
    float s = 0.0f;
    for (int64_t h = j->h0; h < j->h1; ++h) s += kc_ld(j->x, xb + h * xs);
    j->part[r] = s;
  }
  return NULL;
}

int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1];
  if (R == 0) return KC_OK;
  const int64_t chunk = (H + NT - 1) / NT;
  float* part = (float*)calloc((size_t)(R * NT), sizeof(float));
  if (part == NULL) return KC_E_SHAPE;
  job jobs[NT];
  pthread_t th[NT];
  int started[NT];
  for (int t = 0; t < NT; ++t) {
    const int64_t h0 = t * chunk < H ? t * chunk : H, h1 = (t + 1) * chunk < H ? (t + 1) * chunk : H;
    jobs[t] = (job){x, h0, h1, part + t * R};
    started[t] = pthread_create(&th[t], NULL, work, &jobs[t]) == 0;
    if (!started[t]) work(&jobs[t]);
  }
  for (int t = 0; t < NT; ++t)
    if (started[t]) pthread_join(th[t], NULL);
  for (int64_t r = 0; r < R; ++r) {
    float s = 0.0f;
    for (int t = 0; t < NT; ++t) s += part[t * R + r];
    kc_st(y, r * y->strides[0], s);
  }
  free(part);
  return KC_OK;
}
