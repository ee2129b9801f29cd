#pragma once
// Explicit inputs: a contract run on given input values instead of values drawn from the
// seed (`kcontract replay --inputs FILE`). The file is the counterexample `kcontract prove
// --kernel` writes (prover/kernel/kernel_prove.h, docs/ptx.md "Symbolic mode"):
//   {"kcontract-inputs": 1, "contract": ID, "file": F.kcontract, "impl": K.cu, "entry": kc_NAME,
//    "dims": {"M": 2, ...}, "dtypes": {"T": "f32"},
//    "inputs": {"x": {"shape": [2, 3], "values": [...], "f32_bits": ["0x3f800000", ...]}, ...}}
// Values are row-major over the logical shape; f32_bits, when present, is exact and wins.
// The case run is the plan's problem-shape case at `dims` (plan::Options::problemDims) with
// contiguous tensors, seed index 0; the explicit values replace the drawn ones before the
// precondition check, so everything after (the run, the judge) is the check's own path.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/run/case_setup.h"

namespace kc::check {

struct ExplicitInputs {
  std::string contract, file, impl, entry;
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::string> dtypes;
  struct Tensor {
    std::vector<int64_t> shape;
    std::vector<double> values;
  };
  std::map<std::string, Tensor> inputs;
};

// Reads the file; nullopt with `error` set when it is not one.
std::optional<ExplicitInputs> readExplicitInputs(const std::string& path, std::string& error);

// Writes the explicit values of input `arg` of `setup` into its storage bytes (the layout
// of setup.args[arg], in its dtype). Throws std::runtime_error when the shapes disagree or
// the input is missing.
void applyExplicitInputs(const ExplicitInputs& in, const run::CaseSetup& setup, size_t arg, std::vector<uint8_t>& storage);

}  // namespace kc::check
