#pragma once
// The perturbation kinds (docs/checking.md, "Perturbation"): the one list. A protocol's
// `perturb` item names them (sema checks it against kPerturbationKinds,
// compiler/sema/protocol.cpp); the planner gives each case one (plan::Case::perturb); the
// worker hands it to Backend::setPerturbation (backend.h), which the host
// (host/cpu_noise.cpp) and CUDA (cuda/device_noise.cpp) backends implement, and the
// checker runs sub_batch itself (checker/run/batch.h). Header only: sema uses it without
// linking the backends.
#include <array>
#include <string>
#include <vector>

namespace kc::backend::perturb {

inline constexpr char kNone[] = "none";                 // the repeats run unperturbed
inline constexpr char kNoise[] = "noise";               // competing work during every repeat
inline constexpr char kLaunchOrder[] = "launch_order";  // competing work before, after, then not at all
inline constexpr char kOccupancy[] = "occupancy";       // competing work of growing size, in turn per repeat
// The case is also run on smaller batches (its leading rows), whose rows must match the
// full batch's bit for bit (std.ord.batch-invariance@1, plan/batch.h).
inline constexpr char kSubBatch[] = "sub_batch";

// In the order sema's messages list them.
inline constexpr std::array<const char*, 5> kPerturbationKinds = {kNone, kNoise, kLaunchOrder, kOccupancy, kSubBatch};

inline std::vector<std::string> perturbationNames() { return {kPerturbationKinds.begin(), kPerturbationKinds.end()}; }

}  // namespace kc::backend::perturb
