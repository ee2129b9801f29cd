/* Shared by the attack kernels (tests/e2e/check_sandbox_attacks.sh): each one implements
 * acme_relu (examples/relu/relu.kcontract) by computing nothing, and tries to win the check
 * another way. A PASS would mean the attack worked. */
#include <stdint.h>

#include "kcontract/abi.h"

/* C++ (the same sources wrapped in .cu files for the CUDA backend, scripts/gpu_check_sandbox.sh)
 * needs the entry point unmangled. */
#ifdef __cplusplus
#define KC_ENTRY extern "C"
#else
#define KC_ENTRY
#endif

#define KC_ATTACK(body)                                              \
  KC_ENTRY int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) { \
    (void)args;                                                      \
    (void)nargs;                                                     \
    (void)stream;                                                    \
    body;                                                            \
    return 0;                                                        \
  }
