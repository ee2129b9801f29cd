#pragma once
// The IR at concrete dimensions, as SMT terms (docs/design.md §3: one expression IR, emitted as
// SMT terms at reduced shapes). Quantifiers and reductions are unrolled over their concrete
// ranges; tensor cells become Real constants named like x_0_1; the oracle's and the
// tolerance's definitions become Real constants (y*_0_1, tol_0_1) with one defining equation
// per cell. Transcendental functions are uninterpreted (exp_real, ...) with a few true facts
// about them; isnan and isinf are false and isfinite true (inputs are finite reals). More true
// facts follow from those and the definitions: the bounds of normalised weighted sums
// (sum_j p_j v_j / sum_j p_j with p_j >= 0) and the signs of products of nonnegative terms.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/ir/eval.h"
#include "compiler/obligations/smtlib.h"
#include "compiler/sema/model.h"

namespace kc::obl {

// A construct the unroller cannot express: the obligation is left out, with this reason.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where each dimension and dtype variable stands.
struct ReducedShape {
  std::map<std::string, int64_t> fixed;                             // dims bound to a value
  std::map<std::string, std::pair<int64_t, int64_t>> free;          // dims left as Int, in lo..hi
  std::map<std::string, std::string> dtypes;                        // dtype variable -> dtype
  std::vector<std::string> order;                                   // dims in kernel order
  // "R = 2, H = 2; T = f32" (free dims as "K in 1..65536").
  std::string describe() const;
};

// The largest number of cells one quantifier or reduction may unroll to.
inline constexpr int64_t kMaxUnrolled = 4096;

class Unroller {
 public:
  Unroller(const sema::ContractInfo& c, const ReducedShape& shape, smt::Script& script, smt::NameTable& names);

  // A Bool or numeric expression whose free index variables are bound in env (the reduced
  // shape's fixed dims are added). Throws Unsupported.
  smt::TermPtr term(const ir::Node& n, const ir::IntEnv& env = {});

  // Cells: the oracle's value of a definition (y*_0_1, defined by an equation on first use),
  // the tolerance's (tol_0_1), an input's (x_0_1), an output's (y_0_1, unless outputCell says).
  smt::TermPtr oracleCell(const std::string& name, const std::vector<int64_t>& idx);
  smt::TermPtr toleranceCell(const std::string& name, const std::vector<int64_t>& idx);
  smt::TermPtr inputCell(const std::string& name, const std::vector<int64_t>& idx);
  // The constants declared for input cells so far, in declaration order.
  const std::vector<std::string>& inputSymbols() const { return inputSymbols_; }
  smt::TermPtr outputCell(const std::string& name, const std::vector<int64_t>& idx);
  // Replaces the plain output constants: called once per output cell the first time it is read.
  std::function<smt::TermPtr(const std::string& name, const std::vector<int64_t>& idx, const std::string& printedName)>
      outputModel;

  // While a site is watched, each instance of it met during term() adds the condition under
  // which that instance is undefined (denominator zero, log argument <= 0, ...), guarded by
  // the conditions of the if/&&/||/-> around it.
  void watch(const ir::Node* site) { watched_ = site; failures_.clear(); }
  std::vector<smt::TermPtr> takeFailures();

  // The concrete extents of a definition, a tensor; every index tuple of extents, row-major.
  std::vector<int64_t> extents(const sema::Definition& d);
  std::vector<int64_t> extents(const sema::TensorInfo& t);
  static std::vector<std::vector<int64_t>> cells(const std::vector<int64_t>& extents);
  ir::IntEnv bind(const std::vector<std::string>& vars, const std::vector<int64_t>& idx) const;

  const sema::Definition* oracleDef(const std::string& name) const;
  const sema::Definition* toleranceDef(const std::string& name) const;
  // The dtype a DType node stands for (a dtype variable resolved through the shape).
  std::string dtypeOf(const ir::Node& n) const;

  // ulp(T, v), |v| and gamma(n, T) as the unroller writes them (declaring what they need).
  smt::TermPtr ulp(const std::string& dtype, smt::TermPtr v);
  smt::TermPtr abs(smt::TermPtr v) { return helper("abs_real", {std::move(v)}); }
  smt::TermPtr gamma(smt::TermPtr count, const std::string& dtype);

  // Asserts the facts about every uninterpreted function application made so far, then the
  // facts about normalised weighted sums and about the signs of products (all true for every
  // value of the script's constants, given its definitions: they cannot change the answer).
  void addFacts();

  // The sign of a term that the script's definitions and the facts of addFacts imply
  // (Unknown when they imply none that the rules in unroll.cpp, "signs", can see).
  enum class Sign : uint8_t { Unknown, Zero, Positive, NonNegative };
  Sign signOf(const smt::TermPtr& t);

  // Section titles, for the script's comments.
  static constexpr const char* kDimSection = "dimensions left symbolic, within their ranges";
  static constexpr const char* kOracleSection = "the oracle at the reduced shape";
  static constexpr const char* kToleranceSection = "the tolerance at the reduced shape";
  static constexpr const char* kFactSection = "facts about the uninterpreted functions";
  static constexpr const char* kMeanSection =
      "facts about normalised weighted sums (true for all values: they cannot change the answer)";
  static constexpr const char* kSignSection =
      "facts about the signs of products (true for all values: they cannot change the answer)";

 private:
  smt::TermPtr realTerm(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr intTerm(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr boolTerm(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr select(const ir::Node& n, const ir::IntEnv& env,
                      smt::TermPtr (Unroller::*branch)(const ir::Node&, const ir::IntEnv&), bool asReal);
  smt::TermPtr call(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr dtypeQuery(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr read(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr reduce(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr quantifier(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr tensorStat(const ir::Node& n, const ir::IntEnv& env);
  smt::TermPtr dim(const std::string& name);
  smt::TermPtr uf(const std::string& fn, std::vector<smt::TermPtr> args, size_t arity = 1);
  smt::TermPtr helper(const std::string& fn, std::vector<smt::TermPtr> args);
  smt::TermPtr guarded(const smt::TermPtr& bad) const;
  void site(const ir::Node& n, smt::TermPtr bad);
  int64_t evalIndex(const ir::Node& n, const ir::IntEnv& env) const;
  smt::TermPtr defCell(const sema::Definition& d, bool oracle, const std::vector<int64_t>& idx);

  void addMeanFacts();
  void addSignFacts();

  const sema::ContractInfo& c_;
  const ReducedShape& shape_;
  smt::Script& script_;
  smt::NameTable& names_;
  ir::IntEnv base_;  // the fixed dims
  std::map<std::string, smt::TermPtr> cells_;  // key -> constant
  std::map<std::string, smt::TermPtr> definitions_;  // printed constant -> its defining value
  std::vector<smt::TermPtr> divisions_;  // every (/ a b) of the script, in order of first use
  std::set<std::string> divisionKeys_;
  std::map<const smt::Term*, std::pair<smt::TermPtr, Sign>> signs_;  // the term kept alive with its sign
  std::vector<std::string> inputSymbols_;
  std::set<std::string> inProgress_;
  std::set<std::string> commented_;  // definitions whose source text the script already shows
  std::set<std::string> declaredFns_, helpers_;
  struct Application {
    std::string fn;
    std::vector<smt::TermPtr> args;
    smt::TermPtr term;
  };
  std::vector<Application> applications_;
  std::set<std::string> applicationKeys_;
  const ir::Node* watched_ = nullptr;
  std::vector<smt::TermPtr> guards_;
  std::vector<smt::TermPtr> failures_;
};

// The name of a cell: x_0_1 (negative indices as m1).
std::string cellName(const std::string& base, const std::vector<int64_t>& idx);

}  // namespace kc::obl
