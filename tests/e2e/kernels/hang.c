/* An acme_softmax that never returns, for the checker's own end-to-end tests: it spins
 * forever without writing anything. The checker must stop it and report TIMEOUT. The
 * volatile counter keeps the loop (and its side effect) in the code at -O2. */
#include <stdint.h>

#include "kcontract/abi.h"

int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)args;
  (void)nargs;
  (void)stream;
  volatile uint64_t spins = 0;
  for (;;) {
    spins = spins + 1;
  }
}
