/* Leaves a child behind that holds every descriptor (the worker's socket too), then crashes:
 * the crash must read as a crash, not a timeout, and the child must not outlive the run. */
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "attack.h"

static void leave(void) {
  if (fork() == 0) {
    setsid();
    prctl(PR_SET_NAME, "kc-attack-orph", 0, 0, 0);
    sleep(600);
    _exit(0);
  }
  abort();
}
KC_ATTACK(leave())
