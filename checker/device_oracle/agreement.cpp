#include "checker/device_oracle/agreement.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>

#include "checker/run/case_setup.h"

namespace kc::device_oracle {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string cellText(const oracle::Tensor& t, size_t flat) {
  std::string s = "[";
  for (size_t d = 0; d < t.rank(); ++d) {
    int64_t i = (static_cast<int64_t>(flat) / t.strides[d]) % t.shape[d];
    s += (d ? ", " : "") + std::to_string(i);
  }
  return s + "]";
}

DefinitionAgreement compareTensor(const std::string& name, bool tolerance, const oracle::Tensor& compiled,
                                  const oracle::Tensor& interpreted) {
  DefinitionAgreement d;
  d.name = name;
  d.tolerance = tolerance;
  if (compiled.shape != interpreted.shape) {
    d.outside = 1;
    d.firstOutside = "the shapes differ";
    return d;
  }
  double largest = 0;
  for (double v : interpreted.data)
    if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
  d.cells = interpreted.data.size();
  for (size_t i = 0; i < interpreted.data.size(); ++i) {
    const double c = compiled.data[i], h = interpreted.data[i];
    if ((std::isnan(c) && std::isnan(h)) || std::memcmp(&c, &h, sizeof c) == 0) {
      ++d.identical;
      continue;
    }
    const double scale = std::max({std::fabs(c), std::fabs(h), largest});
    const double diff = std::fabs(c - h);
    const double ratio = std::isfinite(scale) && scale > 0 ? diff / (kAgreeRelative * scale) : (c == h ? 0 : INFINITY);
    if (!(ratio <= 1.0)) {
      if (!d.outside) {
        char buf[128];
        std::snprintf(buf, sizeof buf, ": compiled %.17g, interpreter %.17g", c, h);
        d.firstOutside = cellText(interpreted, i) + buf;
      }
      ++d.outside;
    }
    if (std::isnan(ratio) || ratio > d.worst) d.worst = std::isnan(ratio) ? INFINITY : ratio;
  }
  return d;
}

std::string bindingText(const std::map<std::string, numerics::DType>& dtypes) {
  std::string s;
  for (const auto& [v, t] : dtypes) s += (s.empty() ? "" : ", ") + v + "=" + std::string(numerics::dtypeName(t));
  return s;
}

}  // namespace

bool CaseAgreement::agrees() const {
  if (!error.empty()) return false;
  for (const auto& d : defs)
    if (d.outside) return false;
  return true;
}

ContractAgreement compareOracles(const sema::ContractInfo& ct, const plan::Plan& plan, const AgreementOptions& opts) {
  ContractAgreement out;
  out.id = ct.id;
  std::map<std::string, std::unique_ptr<CompiledOracle>> programs;  // by dtype binding
  for (const plan::Case& c : plan.cases) {
    CaseAgreement ca;
    ca.number = c.number;
    for (const auto& [d, v] : c.dims) ca.dims += (ca.dims.empty() ? "" : ", ") + d + "=" + std::to_string(v);
    if (c.memoryBytes > opts.maxBytes || c.seeds.empty()) {
      ca.skipped = c.seeds.empty() ? "no seed" : "its tensors need " + std::to_string(c.memoryBytes >> 20) + " MiB (--max-memory)";
      out.cases.push_back(std::move(ca));
      continue;
    }
    run::CaseSetup s;
    std::vector<std::vector<uint8_t>> storage;
    try {
      s = run::setupCase(ct, plan, c);
      run::setMarks(s, c.seeds.front());
      for (size_t a = 0; a < s.args.size(); ++a)
        storage.push_back(s.args[a].output ? std::vector<uint8_t>{} : run::makeStorage(s, plan, c, a, c.seeds.front(), opts.threads));
    } catch (const std::exception& e) {
      ca.skipped = std::string("its inputs cannot be made: ") + e.what();
      out.cases.push_back(std::move(ca));
      continue;
    }
    ca.dtypes = bindingText(s.dtypes);
    const std::string key = ca.dtypes;
    auto& program = programs[key];
    if (!program) {
      program = CompiledOracle::build(ct, s.dtypes, opts.target, opts.arch);
      if (!program->ok()) out.notLowered.push_back((key.empty() ? "" : key + ": ") + program->why());
    }
    if (!program->ok()) {
      ca.skipped = program->why();
      out.cases.push_back(std::move(ca));
      continue;
    }
    oracle::Bindings b = run::inputBindings(s, storage, opts.threads);
    oracle::OracleResult host;
    auto t0 = std::chrono::steady_clock::now();
    try {
      host = oracle::evalOracle(ct, b, {opts.threads});
    } catch (const std::exception& e) {
      ca.skipped = std::string("the interpreter fails: ") + e.what();
      out.cases.push_back(std::move(ca));
      continue;
    }
    ca.interpreterSeconds = secondsSince(t0);
    oracle::OracleResult compiled;
    t0 = std::chrono::steady_clock::now();
    try {
      compiled = program->eval(b, &ca.programSeconds, nullptr, opts.threads);
    } catch (const std::exception& e) {
      ca.error = e.what();
      out.cases.push_back(std::move(ca));
      continue;
    }
    ca.compiledSeconds = secondsSince(t0);
    for (bool tol : {false, true})
      for (const auto& [name, t] : tol ? host.tolerance : host.oracle) {
        const auto& section = tol ? compiled.tolerance : compiled.oracle;
        auto it = section.find(name);
        if (it == section.end()) {
          ca.error = "the compiled oracle has no '" + name + "'";
          continue;
        }
        ca.defs.push_back(compareTensor(name, tol, it->second, t));
      }
    out.cases.push_back(std::move(ca));
  }
  return out;
}

}  // namespace kc::device_oracle
