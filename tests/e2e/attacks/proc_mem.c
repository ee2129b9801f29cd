/* Looks for the checker in /proc and opens its memory; prints what it could see. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

static void hunt(void) {
  DIR* d = opendir("/proc");
  int seen = 0, opened = 0;
  struct dirent* e;
  while (d && (e = readdir(d))) {
    int pid = atoi(e->d_name);
    if (pid <= 0 || pid == getpid()) continue;
    ++seen;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", pid);
    int fd = open(path, O_RDWR);
    if (fd >= 0) {
      ++opened;
      close(fd);
    }
  }
  if (d) closedir(d);
  printf("other processes seen: %d, memories opened: %d\n", seen, opened);
}
KC_ATTACK(hunt())
