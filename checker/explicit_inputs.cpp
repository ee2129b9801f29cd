#include "checker/explicit_inputs.h"

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "stdlib/numerics/dtype.h"

namespace kc::check {

std::optional<ExplicitInputs> readExplicitInputs(const std::string& path, std::string& error) {
  std::ifstream f(path);
  if (!f) {
    error = "cannot read '" + path + "'";
    return std::nullopt;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  try {
    auto j = nlohmann::json::parse(ss.str());
    if (!j.is_object() || !j.contains("kcontract-inputs")) {
      error = path + " is not an inputs file (no \"kcontract-inputs\" key)";
      return std::nullopt;
    }
    ExplicitInputs in;
    in.contract = j.value("contract", "");
    in.file = j.value("file", "");
    in.impl = j.value("impl", "");
    in.entry = j.value("entry", "");
    if (j.contains("dims"))
      for (auto& [k, v] : j["dims"].items()) in.dims[k] = v.get<int64_t>();
    if (j.contains("dtypes"))
      for (auto& [k, v] : j["dtypes"].items()) in.dtypes[k] = v.get<std::string>();
    for (auto& [name, t] : j.at("inputs").items()) {
      ExplicitInputs::Tensor x;
      x.shape = t.at("shape").get<std::vector<int64_t>>();
      if (t.contains("f32_bits")) {
        for (const auto& h : t["f32_bits"]) {
          uint32_t bits = static_cast<uint32_t>(std::stoul(h.get<std::string>(), nullptr, 16));
          float v = 0;
          std::memcpy(&v, &bits, sizeof v);
          x.values.push_back(static_cast<double>(v));
        }
      } else {
        x.values = t.at("values").get<std::vector<double>>();
      }
      in.inputs[name] = std::move(x);
    }
    if (in.contract.empty()) {
      error = path + " names no contract";
      return std::nullopt;
    }
    return in;
  } catch (const std::exception& e) {
    error = path + ": " + e.what();
    return std::nullopt;
  }
}

void applyExplicitInputs(const ExplicitInputs& in, const run::CaseSetup& setup, size_t arg, std::vector<uint8_t>& storage) {
  const run::ArgSpec& a = setup.args.at(arg);
  if (a.output) return;
  auto it = in.inputs.find(a.name);
  if (it == in.inputs.end()) throw std::runtime_error("the inputs file gives no values for input " + a.name);
  const auto& t = it->second;
  if (t.shape != a.shape) throw std::runtime_error("the inputs file's shape of " + a.name + " differs from the case's");
  if (a.dtype != numerics::DType::F32) throw std::runtime_error("explicit inputs are f32 only; " + a.name + " is not");
  int64_t n = a.numel();
  if (static_cast<int64_t>(t.values.size()) != n)
    throw std::runtime_error("the inputs file has " + std::to_string(t.values.size()) + " values for " + a.name + ", not " +
                             std::to_string(n));
  std::vector<int64_t> idx(a.shape.size(), 0);
  for (int64_t f = 0; f < n; ++f) {
    int64_t rest = f;
    for (size_t d = a.shape.size(); d-- > 0;) {
      idx[d] = rest % a.shape[d];
      rest /= a.shape[d];
    }
    float v = static_cast<float>(t.values[static_cast<size_t>(f)]);
    size_t at = static_cast<size_t>(a.storageIndex(idx)) * 4;
    if (at + 4 > storage.size()) throw std::runtime_error("input " + a.name + " does not fit its storage");
    std::memcpy(storage.data() + at, &v, sizeof v);
  }
}

}  // namespace kc::check
