#include "checker/device_oracle/oracle_engine.h"

#include "backends/backend.h"
#include "backends/backend_names.h"

namespace kc::device_oracle {

std::optional<oracle::OracleResult> OracleEngine::eval(const sema::ContractInfo& ct, const oracle::Bindings& b,
                                                       std::string& why, double* seconds, unsigned threads) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(&ct));
  for (const auto& [v, t] : b.dtypes) key += " " + v + "=" + std::string(numerics::dtypeName(t));
  CompiledOracle* program;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& p = programs_[key];
    if (!p) p = CompiledOracle::build(ct, b.dtypes, target_, arch_);
    program = p.get();
  }
  if (!program->ok()) {
    why = program->why();
    return std::nullopt;
  }
  try {
    return program->eval(b, seconds, &server_, threads);
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

std::string OracleEngines::validate(const std::string& choice) {
  if (choice == "interpreter" || choice == "host" || choice == "cuda" || choice == "auto") return "";
  return "--oracle is interpreter, host, cuda or auto; not '" + choice + "'";
}

OracleEngine* OracleEngines::forJob(const std::string& choice, const std::string& backend, std::string& why) {
  const bool cuda = choice == "cuda" || (choice == "auto" && backend == backend::kCudaBackend);
  if (choice == "interpreter" || (choice == "auto" && !cuda)) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!cuda) {
    if (!host_) host_ = std::make_unique<OracleEngine>(Target::Host, "");
    return host_.get();
  }
  if (!cudaArch_) {
    backend::Availability a = backend::makeBackend(backend::kCudaBackend)->probe();
    cudaArch_ = a.available ? a.arch : "";
    if (!a.available) noGpu_ = "no GPU for the compiled oracle: " + a.reason;
  }
  if (cudaArch_->empty()) {
    why = noGpu_;
    return nullptr;
  }
  if (!cuda_) cuda_ = std::make_unique<OracleEngine>(Target::Cuda, *cudaArch_);
  return cuda_.get();
}

}  // namespace kc::device_oracle
