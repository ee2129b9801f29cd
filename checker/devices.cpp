#include "checker/devices.h"

#include <algorithm>
#include <sstream>

#include "backends/backend_names.h"

namespace kc::check {

namespace {

std::vector<std::string> splitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) parts.push_back(part);
  if (!text.empty() && text.back() == ',') parts.push_back("");
  return parts;
}

bool allDigits(const std::string& s) {
  return !s.empty() && s.size() <= 4 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

DeviceLanes resolveDevices(const std::string& text, int count, const std::string& why, const char* visibleEnv) {
  DeviceLanes lanes;
  if (text.empty()) {
    lanes.error = "--devices is 'all' or device numbers separated by commas (0,1); not ''";
    return lanes;
  }
  if (text == "all") {
    for (int d = 0; d < count; ++d) lanes.ordinals.push_back(d);
  } else {
    for (const std::string& part : splitCommas(text)) {
      if (!allDigits(part)) {
        lanes.error = "--devices is 'all' or device numbers separated by commas (0,1); not '" + text + "'";
        return lanes;
      }
      int d = std::stoi(part);
      if (std::find(lanes.ordinals.begin(), lanes.ordinals.end(), d) != lanes.ordinals.end()) {
        lanes.error = "--devices names device " + part + " twice";
        return lanes;
      }
      lanes.ordinals.push_back(d);
    }
  }
  if (count <= 0) {
    lanes.error = "--devices " + text + ": " + (why.empty() ? "no CUDA device here" : why);
    lanes.ordinals.clear();
    return lanes;
  }
  for (int d : lanes.ordinals)
    if (d >= count) {
      lanes.error = "--devices names device " + std::to_string(d) + ", but CUDA sees " + std::to_string(count) +
                    (count == 1 ? " device (0)" : " devices (0 to " + std::to_string(count - 1) + ")");
      lanes.ordinals.clear();
      return lanes;
    }
  // The checker's own CUDA_VISIBLE_DEVICES, when set, is what the numbers index.
  std::vector<std::string> seen;
  if (visibleEnv && *visibleEnv) seen = splitCommas(visibleEnv);
  for (int d : lanes.ordinals)
    lanes.visible.push_back(static_cast<size_t>(d) < seen.size() ? seen[static_cast<size_t>(d)] : std::to_string(d));
  return lanes;
}

bool spreadsOverDevices(const std::string& backend) {
  return backend == backend::kCudaBackend || backend == backend::kExecBackend;
}

}  // namespace kc::check
