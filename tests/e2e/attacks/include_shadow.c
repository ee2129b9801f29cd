/* A source that puts the machine's password hashes into the compiler's error message, and
 * from there into the report. */
#include "/etc/shadow"
#include "attack.h"
KC_ATTACK((void)0)
