#pragma once
// `kcontract prove CONTRACT --kernel K.cu` (docs/ptx.md, "Symbolic mode"): the kernel's own
// PTX run symbolically at one reduced shape, each output cell an expression over the input
// cells with every f32 rounding a bounded error, and the contract's postcondition checked for
// all inputs meeting its precondition through cvc5 (prover/smt).
//
//   1. The kernel is built by the ptx backend (nvcc, cached) and its host code run for real
//      against the runtime shim, with contiguous f32 buffers at the reduced shape; every
//      launch it makes is executed symbolically (sym_exec.h) instead of by the interpreter.
//   2. The output cells' DAG nodes replace the contract's output cells (obl::Unroller's
//      outputModel); the script asserts the precondition, the rounding bounds and the
//      negated postcondition.
//   3. unsat: PROVED at that shape under the rounding model; sat: a candidate counterexample
//      (the caller confirms it concretely before calling it REFUTED); unknown, timeout, or a
//      run the symbolic subset cannot follow: UNKNOWN with the reason.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/sema/model.h"
#include "prover/smt/solver.h"

namespace kc::kprove {

struct Options {
  std::string kernelPath;
  std::string entry;            // "" : kc_<the contract's kernel name>
  std::string contractFile;     // written into the counterexample file
  std::vector<std::pair<std::string, int64_t>> dims;  // --dims: replace the reduced shape's values
  std::string dtype = "f32";    // every dtype variable (only f32 is symbolic)
  double timeout = 10;          // seconds for the solver
  bool probes = true;           // witness probes (fixed input values) beside the solver (smt::Options)
  bool idioms = true;           // summation idioms (sym_dag.h); --no-idioms: every rounding its own constant
};

enum class Verdict { Proved, Refuted, Unknown, Error };
const char* verdictName(Verdict v);  // "PROVED", "REFUTED", "UNKNOWN", "ERROR"

// The inputs of a counterexample: every cell of every input tensor, row-major.
struct Counterexample {
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::string> dtypes;  // dtype variables
  struct Tensor {
    std::string name;
    std::vector<int64_t> shape;
    std::vector<float> values;
  };
  std::vector<Tensor> inputs;
};

struct Result {
  Verdict verdict = Verdict::Error;
  std::string reason;        // UNKNOWN / ERROR: why; REFUTED: what fails (unwritten cells, the post)
  std::string shape;         // "M = 2, N = 2, K = 3; T = f32"
  std::string entry;
  std::vector<std::string> launches;  // "gemm_tiled(grid (1,1,1), block (32,8,1))"
  uint64_t instructions = 0;          // thread-instructions run symbolically
  size_t nodes = 0, roundings = 0;    // the DAG
  size_t sums = 0, roundingsInSums = 0;  // summation idioms written, and the DAG's roundings they stand for
  size_t outputCells = 0;
  std::vector<std::string> unwritten;  // output cells never written (or NaN from a never-written cell)
  smt::Answer answer = smt::Answer::Error;
  std::string strategy;
  double solveSeconds = 0, runSeconds = 0;
  std::string smt2;                    // the script solved
  std::optional<Counterexample> cex;   // sat: the model's inputs, rounded to f32
  // The inputs' names and shapes at the reduced shape (values 0), once they are known: what
  // concrete probes (concrete_probes.h) fill when the solver has no answer.
  std::optional<Counterexample> layout;
};

Result proveKernel(const sema::ContractInfo& c, const Options& o);

// The counterexample file (docs/ptx.md, "Symbolic mode"): JSON that `kcontract replay
// --inputs` reads (checker/explicit_inputs.h).
std::string counterexampleJson(const sema::ContractInfo& c, const Options& o, const Result& r);

}  // namespace kc::kprove
