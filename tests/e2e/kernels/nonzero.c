/* An acme_softmax that reports an error, for the checker's own end-to-end tests: it returns
 * 7 without writing its output. The checker must report ERROR (the kernel's own error code),
 * not FAIL, and must not evaluate the untouched output. */
#include <stdint.h>

#include "kcontract/abi.h"

int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)args;
  (void)nargs;
  (void)stream;
  return 7;
}
