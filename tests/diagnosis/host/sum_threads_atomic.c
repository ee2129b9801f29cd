/* Diagnosis corpus, BUGGY (nondeterministic): the row sum split over 4 POSIX threads;
 * thread t sums the t-th quarter of every row and adds it into the row's total with an
 * atomic float add (a compare-and-swap loop) as it goes, the host form of atomicAdd in a
 * CUDA reduction: the order of the 4 additions of a row, and so its rounding, follows the
 * threads' timing. Twin: sum_threads.c. */
#include <pthread.h>
#include <stdlib.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

#define NT 4

typedef struct {
  const kc_tensor* x;
  int64_t h0, h1;
  float* total; /* R totals shared by the threads */
} job;

static void atomic_add_f32(float* p, float v) {
  uint32_t old = __atomic_load_n((uint32_t*)p, __ATOMIC_RELAXED), upd;
  do {
    float f;
    memcpy(&f, &old, 4);
    f += v;
    memcpy(&upd, &f, 4);
  } while (!__atomic_compare_exchange_n((uint32_t*)p, &old, upd, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
}

static void* work(void* p) {
  job* j = (job*)p;
  const int64_t R = j->x->shape[0], xs = j->x->strides[1];
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * j->x->strides[0];
    float s = 0.0f;
    for (int64_t h = j->h0; h < j->h1; ++h) s += kc_ld(j->x, xb + h * xs);
    atomic_add_f32(&j->total[r], s); /* BUG: the order of the adds follows the threads' timing */
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
  float* total = (float*)calloc((size_t)R, sizeof(float));
  if (total == NULL) return KC_E_SHAPE;
  job jobs[NT];
  pthread_t th[NT];
  int started[NT];
  for (int t = 0; t < NT; ++t) {
    const int64_t h0 = t * chunk < H ? t * chunk : H, h1 = (t + 1) * chunk < H ? (t + 1) * chunk : H;
    jobs[t] = (job){x, h0, h1, total};
    started[t] = pthread_create(&th[t], NULL, work, &jobs[t]) == 0;
    if (!started[t]) work(&jobs[t]);
  }
  for (int t = 0; t < NT; ++t)
    if (started[t]) pthread_join(th[t], NULL);
  for (int64_t r = 0; r < R; ++r) kc_st(y, r * y->strides[0], total[r]);
  free(total);
  return KC_OK;
}
