/* A source whose compile never ends: it includes an endless device file. */
#include "/dev/zero"
