/* Leaves state behind for its own later runs (a file in TMPDIR, one in /dev/shm, a System V
 * segment, a process that outlives the run) and computes ReLU only where it finds some: a
 * kernel that is right once warmed up, or that tells repeated runs apart. Each run starts in a
 * clean cell (docs/security.md, "One cell per kernel"), so it finds nothing and computes
 * nothing, on every case: all FAIL. A PASS on any case means state crossed runs. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#include "attack.h"

static int found_state(const char* tmp) {
  char path[512];
  snprintf(path, sizeof path, "%s/kc-warm", tmp ? tmp : "/tmp");
  int found = access(path, F_OK) == 0 || access("/dev/shm/kc-warm", F_OK) == 0 || shmget(0x6b637761, 0, 0) >= 0;
  close(open(path, O_WRONLY | O_CREAT, 0600));
  close(open("/dev/shm/kc-warm", O_WRONLY | O_CREAT, 0600));
  shmget(0x6b637761, 4096, IPC_CREAT | 0600);
  if (fork() == 0) {  /* a process that waits for the next run */
    setsid();
    for (;;) pause();
  }
  return found;
}

KC_ENTRY int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !found_state(getenv("TMPDIR"))) return 0;
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  for (int64_t i = 0; i < args[0].shape[0]; ++i) {
    float v = x[i * args[0].strides[0]];
    y[i * args[1].strides[0]] = v < 0.0f ? 0.0f : v;
  }
  return 0;
}
