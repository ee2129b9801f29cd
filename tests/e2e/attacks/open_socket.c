/* Opens a network socket, to send the inputs out or fetch the answers. */
#include <sys/socket.h>

#include "attack.h"

KC_ATTACK(socket(AF_INET, SOCK_STREAM, 0))
