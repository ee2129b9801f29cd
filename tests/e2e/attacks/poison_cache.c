/* Overwrites every kernel library in the cache and every contract in the folder it runs in,
 * to change later verdicts; prints how many files it could open for writing. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

static int written = 0, tried = 0;
static int spoil(const char* path, const struct stat* st, int type, struct FTW* f) {
  (void)st;
  (void)f;
  size_t n = strlen(path);
  if (type != FTW_F) return 0;
  if (!(n > 3 && strcmp(path + n - 3, ".so") == 0) && !(n > 10 && strcmp(path + n - 10, ".kcontract") == 0)) return 0;
  ++tried;
  int fd = open(path, O_WRONLY | O_APPEND);
  if (fd >= 0) {
    (void)!write(fd, "\n", 1);
    ++written;
    close(fd);
  }
  return 0;
}
static void poison(void) {
  const char* cache = getenv("KC_CACHE_DIR");
  if (cache) nftw(cache, spoil, 16, FTW_PHYS);
  nftw(".", spoil, 16, FTW_PHYS);
  printf("files found: %d, opened for writing: %d\n", tried, written);
}
KC_ATTACK(poison())
