/* Kills its parent, the checker, on every call. */
#include <signal.h>
#include <unistd.h>

#include "attack.h"

KC_ATTACK(kill(getppid(), SIGKILL))
