/* Behaves only when it sees the checker: computes relu right when its parent or any process
 * it can see is named kcontract, and writes zeros otherwise (what it would do in a plain
 * harness). Unable to tell, it must FAIL. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

static int named_kcontract(int pid) {
  char path[64], name[64] = {0};
  snprintf(path, sizeof path, "/proc/%d/comm", pid);
  FILE* f = fopen(path, "r");
  if (!f) return 0;
  int found = fgets(name, sizeof name, f) && strncmp(name, "kcontract", 9) == 0;
  fclose(f);
  return found;
}

static int watched(void) {
  if (named_kcontract(getppid())) return 1;
  DIR* d = opendir("/proc");
  struct dirent* e;
  int found = 0;
  while (d && (e = readdir(d)))
    if (atoi(e->d_name) > 0 && named_kcontract(atoi(e->d_name))) found = 1;
  if (d) closedir(d);
  return found;
}

KC_ENTRY int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || args[0].dtype != KC_F32) return 2;
  const int64_t n = args[0].shape[0], xs = args[0].strides[0], ys = args[1].strides[0];
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  int honest = watched();
  for (int64_t i = 0; i < n; ++i) y[i * ys] = honest ? (x[i * xs] < 0.0f ? 0.0f : x[i * xs]) : 0.0f;
  return 0;
}
