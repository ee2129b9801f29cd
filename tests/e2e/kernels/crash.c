/* An acme_softmax that faults, for the checker's own end-to-end tests: it stores through a
 * NULL pointer, so the process gets SIGSEGV. The checker must report CRASH for the case and
 * carry on with the suite. The pointer is volatile so that the compiler cannot see it is
 * NULL (GCC would otherwise turn the store into a trap instruction, SIGILL), and so is what
 * it points to, so that the store itself cannot be dropped (GCC 12 -O2 removes a plain
 * store through a volatile-loaded pointer). */
#include <stddef.h>
#include <stdint.h>

#include "kcontract/abi.h"

int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)args;
  (void)nargs;
  (void)stream;
  volatile float* volatile scratch = NULL;
  scratch[0] = 1.0f;
  return 0;
}
