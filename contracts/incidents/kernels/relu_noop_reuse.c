/* Reproduction for contracts/incidents/sakana-memory-reuse.md: a kernel that writes nothing
 * at all. A harness whose output tensor reuses the memory its reference was just computed in
 * reads the reference back and calls it correct. Checked against std.cal.relu@1. */
#include "../../calibration/cal_views.h"

int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  return 0;
}
