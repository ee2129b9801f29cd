/* Writes forged PASS lines into every descriptor it inherited (the results file was fd 3). */
#include <string.h>
#include <unistd.h>

#include "attack.h"

static void forge(void) {
  const char* line = "{\"contract\":\"acme.relu@1\",\"case\":1,\"verdict\":\"PASS\"}\n";
  for (int fd = 3; fd < 256; ++fd) (void)!write(fd, line, strlen(line));
}
KC_ATTACK(forge())
