/* ReLU kernels that try to tell kcontract's check from a plain harness by what it leaves in
 * memory or in /proc (e2e/check_nothing_fixed). Each computes ReLU correctly only when it
 * thinks it is being checked, and writes zeros otherwise, as a kernel gaming a benchmark
 * would the other way round. kc_relu_old_poison instead computes ReLU and writes the old
 * fixed poison (0x7FA5A5A5) into every 7th cell: those cells were written, and are wrong. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kcontract/abi.h"

static void relu(kc_tensor* args, int watched) {
  const int64_t n = args[0].shape[0], xs = args[0].strides[0], ys = args[1].strides[0];
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  for (int64_t i = 0; i < n; ++i) y[i * ys] = watched ? (x[i * xs] < 0.0f ? 0.0f : x[i * xs]) : 0.0f;
}

/* The output still holds the old poison: kcontract's. */
int kc_relu_watch_poison(kc_tensor* args, int32_t nargs, void* stream) {
  uint32_t first;
  memcpy(&first, args[1].data, 4);
  relu(args, first == 0x7FA5A5A5u);
  return 0;
}

/* The bytes before the output are the old canary (C3 3C 5A A5). */
int kc_relu_watch_canary(kc_tensor* args, int32_t nargs, void* stream) {
  const uint8_t* before = (const uint8_t*)args[1].data - 256;
  relu(args, before[0] == 0xC3 && before[1] == 0x3C && before[2] == 0x5A && before[3] == 0xA5);
  return 0;
}

/* The process is named kcontract, or maps kcontract's shared memory (memfd:kc-run). */
int kc_relu_watch_names(kc_tensor* args, int32_t nargs, void* stream) {
  int watched = 0;
  char line[512];
  FILE* f = fopen("/proc/self/comm", "r");
  if (f) {
    if (fgets(line, sizeof line, f) && strncmp(line, "kcontract", 9) == 0) watched = 1;
    fclose(f);
  }
  f = fopen("/proc/self/cmdline", "r");
  if (f) {
    size_t got = fread(line, 1, sizeof line - 1, f);
    line[got] = 0;
    if (strstr(line, "kcontract")) watched = 1;
    fclose(f);
  }
  f = fopen("/proc/self/maps", "r");
  if (f) {
    while (fgets(line, sizeof line, f))
      if (strstr(line, "memfd:kc-run") || strstr(line, "/tmp/kc-worker")) watched = 1;
    fclose(f);
  }
  relu(args, watched);
  return 0;
}

/* Computes ReLU, and writes the old poison into every 7th cell. */
int kc_relu_old_poison(kc_tensor* args, int32_t nargs, void* stream) {
  relu(args, 1);
  const uint32_t old = 0x7FA5A5A5u;
  for (int64_t i = 0; i < args[1].shape[0]; i += 7) memcpy((float*)args[1].data + i * args[1].strides[0], &old, 4);
  return 0;
}
