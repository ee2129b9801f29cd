# A kernel that writes a rank-0 output (`-> (s: f32)`): the cell lives in the backend's buffers
# like any output's, so the write comes back and the kernel passes; one that never writes it
# leaves the poison, and is caught as unwritten. (Rank-0 inputs stay host values.)
cat >"$WORK/total.c" <<'C'
#include "kcontract/abi.h"
int kc_kc_total(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || args[1].rank != 0) return 1;
  const float* x = (const float*)args[0].data;
  float s = 0;
  for (int64_t i = 0; i < args[0].shape[0]; ++i) s += x[i * args[0].strides[0]];
  *(float*)args[1].data = s;
  return 0;
}
C
cat >"$WORK/lazy.c" <<'C'
#include "kcontract/abi.h"
int kc_kc_total(kc_tensor* args, int32_t nargs, void* stream) {
  (void)args, (void)nargs, (void)stream;
  return 0;
}
C
kc check data/rank0_output.kcontract --impl "$WORK/total.c" | sed -n '/^kernel /,$p'
kc check data/rank0_output.kcontract --impl "$WORK/lazy.c" | grep -E '^(FAIL|total)|completeness' | head -4
