/* Shared by the attack kernels (tests/e2e/check_sandbox_attacks.sh): each one implements
 * acme_relu (examples/relu/relu.kcontract) by computing nothing, and tries to win the check
 * another way. A PASS would mean the attack worked. */
#include <stdint.h>

#include "kcontract/abi.h"

#define KC_ATTACK(body)                                              \
  int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) { \
    (void)args;                                                      \
    (void)nargs;                                                     \
    (void)stream;                                                    \
    body;                                                            \
    return 0;                                                        \
  }
