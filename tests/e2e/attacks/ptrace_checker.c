/* Attaches to its parent with ptrace, to rewrite the checker's copies of its inputs. */
#include <sys/ptrace.h>
#include <unistd.h>

#include "attack.h"

KC_ATTACK(ptrace(PTRACE_ATTACH, getppid(), 0, 0))
