#pragma once
// `check --devices 0,1,…|all`: the GPUs of one host a check spreads its cases over
// (docs/scale.md). Each named device becomes a lane of workers whose cells see it alone
// (CUDA_VISIBLE_DEVICES), so a kernel written for device 0 runs unchanged on any of them.
#include <string>
#include <vector>

namespace kc::check {

struct DeviceLanes {
  std::vector<int> ordinals;         // as named: 0 is the first GPU the checker's CUDA sees
  std::vector<std::string> visible;  // per lane: the CUDA_VISIBLE_DEVICES its cells get
  std::string error;                 // why the text cannot be used ("" when it can)
};

// `text`: "all", or device numbers separated by commas ("0,1"), each named once. `count`:
// the GPUs CUDA sees here (0 with `why` when none). `visibleEnv`: the checker's own
// CUDA_VISIBLE_DEVICES (nullptr when unset), whose entries the numbers index, so that
// `--devices 1` under CUDA_VISIBLE_DEVICES=4,5 is GPU 5.
// kAnyDeviceCount as `count`: only the text's form is checked (a device number has at most
// four digits).
inline constexpr int kAnyDeviceCount = 10000;
DeviceLanes resolveDevices(const std::string& text, int count, const std::string& why, const char* visibleEnv);

// Whether jobs on this backend are spread over --devices: those whose kernels run on a GPU
// through CUDA (cuda; exec, whose adaptors see CUDA_VISIBLE_DEVICES too). The others run on
// one lane.
bool spreadsOverDevices(const std::string& backend);

}  // namespace kc::check
