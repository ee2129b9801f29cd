#pragma once
// Matching a failed case against the contract's violation signatures (docs/language.md,
// "Signatures"). A signature names the failure when every one of its clauses holds:
//   wrong cells of y: P     P holds at every wrong cell of y (and y has one)
//   fails when C / fails only when C
//                           C holds on this case's inputs and oracle
//   differs run to run      two launches of the case gave different bits
//   error grows with D      the failure is a precision failure (finite errors over the
//                           tolerance); the growth itself is judged across cases in the summary
//   error OP E              the largest absolute error compares with E as written
#include <string>
#include <vector>

#include "checker/oracle/evaluator.h"
#include "compiler/sema/model.h"

namespace kc::run {

struct FailureFacts {
  // Per output name: the logical indices of its wrong cells (those breaking a postcondition).
  std::vector<std::pair<std::string, std::vector<oracle::Cell>>> wrongCells;
  bool differsRunToRun = false;
  bool precisionFailure = false;  // some wrong cell has finite error above its tolerance
  double maxAbsError = 0;
  // Every wrong cell still holds the poison: the kernel never wrote them. A signature that
  // explains wrong values by a property of the inputs (`fails when`) then does not match.
  bool allUnwritten = false;
  // Which classes the case is for (plan::Case::origins) and which ask for every case
  // (plan::Plan::everywhere): a class's signature names a failure only on its own cases.
  std::vector<std::string> caseOrigins;
  std::vector<std::string> everywhere;
  // Who brought the violated postconditions: class IDs, "" for the contract's own. When
  // only classes did, a matching signature of one of them outranks every other: the
  // failure is of the property that class checks (a NaN swallowed on a special-values case
  // is `nan-swallowed`, whatever the contract's conditions on the shape say).
  std::vector<std::string> violatedBy;
};

// The names of the contract's signatures the failure matches, in declaration order. The
// contract's own signatures may match on any case; a class's only on the cases made for it
// (facts.caseOrigins) and, when it asks for every case (facts.everywhere), on any case. A
// signature that says something about the case (`fails when`, `differs run to run`, `error
// OP E`) outranks one that only describes the wrong cells; among those, the signatures of
// the classes the case was made for (and the contract's own) outrank those of the classes
// that ask for every case: a stride bug leaves cells unwritten too, but on a case made for
// std.mem.strides@1 it is `ignores-strides`, not `tail-unwritten`.
// `outranked`, when given, receives the names that matched but were outranked: the diagnosis
// turns to them when it refutes the outranking ones across cases.
std::vector<std::string> matchSignatures(const sema::ContractInfo& ct, const oracle::Bindings& b,
                                         const oracle::OracleResult& r, const FailureFacts& facts,
                                         std::vector<std::string>* outranked = nullptr);

// For each signature with a `fails when` or `fails only when` clause, whether its (first)
// condition holds on the case: the evidence a diagnosis weighs across cases.
std::vector<std::pair<std::string, bool>> evaluateConditions(const sema::ContractInfo& ct, const oracle::Bindings& b,
                                                             const oracle::OracleResult& r);

}  // namespace kc::run
