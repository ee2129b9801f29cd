# Errors that do not depend on the case stop early: a kernel that cannot be found, built,
# loaded or started is one located input error (exit 2), said once with the compiler's own
# output from its first error on, and no case runs. A suite can expect exactly that
# (`expect: error`); `expect: fail` is met by a FAIL verdict only, and a pinned signature
# must be among those the FAIL cases name.
cp ../../examples/relu/relu.c ../../examples/relu/relu_nan.c ../../examples/relu/relu.kcontract "$WORK/"
cd "$WORK"
cat > broken.c <<'C'
#include "kcontract/abi.h"
int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) {
  return undeclared_name + ;
}
C
echo "== a compile error: once, with the compiler's first error"
kc check relu.kcontract --impl broken.c --dtype f32 2>&1 | sed -E 's/ -o [^ ]+\/[a-z_]+-[0-9a-f]{16}\.so/ -o <so>/'
echo "== a missing source"
kc check relu.kcontract --impl missing.c --dtype f32
echo "== a wrong entry point"
kc check relu.kcontract --impl relu.c:kc_no_such_entry --dtype f32 2>&1 | sed -E 's/[a-z_]+-[0-9a-f]{16}\.so/<so>/'
echo "== an adaptor that cannot start"
printf '{"command": ["no-such-adaptor-program", "x.py"]}\n' > missing.kcexec
kc check relu.kcontract --impl missing.kcexec --backend exec --dtype f32
cat > suite.yaml <<'YAML'
kcontract-suite: 1
kernels:
  - {name: "broken, expected to fail", impl: broken.c, contract: relu.kcontract, expect: fail, supports: {dtypes: [f32]}}
  - {name: "broken, expected not to build", impl: broken.c, contract: relu.kcontract, expect: error, supports: {dtypes: [f32]}}
  - {name: "nan-swallowing relu, the right cause", impl: relu_nan.c, contract: relu.kcontract, expect: {verdict: fail, signature: nan-swallowed}, supports: {dtypes: [f32]}}
  - {name: "nan-swallowing relu, a wrong cause", impl: relu_nan.c, contract: relu.kcontract, expect: {verdict: fail, signature: overflow}, supports: {dtypes: [f32]}}
YAML
echo "== a suite: expectations per kind of outcome"
kc check suite.yaml --expect 2>&1 | sed -n '/^expectations:/,$p;/: error: /p' | sed -E 's/ -o [^ ]+\/[a-z_]+-[0-9a-f]{16}\.so/ -o <so>/'
