/* Writes into its parent's memory with process_vm_writev. */
#define _GNU_SOURCE
#include <sys/uio.h>
#include <unistd.h>

#include "attack.h"

static void poke(void) {
  char zeros[64] = {0};
  struct iovec local = {zeros, sizeof zeros}, remote = {(void*)0x400000, sizeof zeros};
  process_vm_writev(getppid(), &local, 1, &remote, 1, 0);
}
KC_ATTACK(poke())
