/* Prints 1 GiB, to grow the checker that captures it. */
#include <string.h>
#include <unistd.h>

#include "attack.h"

static void flood(void) {
  static char chunk[1 << 20];
  memset(chunk, 'A', sizeof chunk);
  for (int k = 0; k < 1024; ++k)
    if (write(1, chunk, sizeof chunk) < 0) break;
}
KC_ATTACK(flood())
