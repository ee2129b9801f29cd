// The re-run that tells a kernel reading the wrong cells of a strided view from one that
// reads the right cells and computes them differently there (probes.h): which output cells
// move when a few input cells change, in the case's views and in contiguous ones.
#include <algorithm>
#include <cmath>
#include <set>

#include "checker/diagnose/probes.h"
#include "stdlib/numerics/dtype.h"

namespace kc::diagnose {

namespace {

// One cell of each float input changes, two thirds of the way into its view (not its first
// cell, where every layout starts alike). It takes the value of another cell of the same input
// (the first from its mirror position on that differs), so the new value is the input's own
// (its range, its preconditions' domain) and the outputs that read it move.
void changeOneCell(const run::ArgSpec& a, std::vector<double>& v) {
  if (!numerics::isFloat(a.dtype) || v.size() < 2) return;
  const size_t n = v.size(), at = std::max<size_t>(1, 2 * n / 3);
  for (size_t step = 0; step < n; ++step) {
    size_t from = (n - 1 - at + step) % n;
    if (from != at && !(v[from] == v[at]) && !std::isnan(v[from])) {
      v[at] = v[from];
      return;
    }
  }
}

bool sameValue(double a, double b) { return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b)); }

// The output cells (per output, row-major) whose values differ between the two runs.
std::set<std::pair<size_t, size_t>> movedCells(const VariantRun& a, const VariantRun& b) {
  std::set<std::pair<size_t, size_t>> out;
  for (size_t o = 0; o < a.outputs.size() && o < b.outputs.size(); ++o) {
    std::vector<double> x = outputCells(a, o), y = outputCells(b, o);
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (!sameValue(x[i], y[i])) out.emplace(o, i);
  }
  return out;
}

}  // namespace

std::optional<std::string> readsItsOwnCells(ProbeContext& ctx, const plan::Case& strided, const plan::Case& contiguous, uint64_t seed,
                                            uint64_t marks, std::vector<std::string>& log) {
  const std::string at = "#" + std::to_string(strided.number) + " with one cell of each float input changed, in its views and in contiguous ones: ";
  InputEdit edit;
  edit.rewrite = changeOneCell;
  VariantRun s0 = runVariant(ctx, strided, seed, marks);
  VariantRun s1 = runVariant(ctx, strided, seed, marks, edit);
  VariantRun c0 = runVariant(ctx, contiguous, seed, marks);
  VariantRun c1 = runVariant(ctx, contiguous, seed, marks, edit);
  for (const VariantRun* r : {&s0, &s1, &c0, &c1})
    if (!r->ran) {
      log.push_back(at + "did not run (" + r->why + ")");
      return std::nullopt;
    }
  if (!inputsDiffer(s0, s1)) {
    log.push_back(at + "no input cell could change (nothing shown)");
    return std::nullopt;
  }
  std::set<std::pair<size_t, size_t>> inViews = movedCells(s0, s1), inContiguous = movedCells(c0, c1);
  size_t cells = 0;
  for (size_t o = 0; o < c0.outputs.size(); ++o) cells += outputCells(c0, o).size();
  if (inContiguous.empty() || 2 * inContiguous.size() > cells) {  // where a change lands says which cells are read only when it reaches few
    log.push_back(at + "the change reaches " + std::to_string(inContiguous.size()) + " of " + std::to_string(cells) +
                  " output cells in contiguous views (nothing shown)");
    return std::nullopt;
  }
  size_t elsewhere = 0;
  for (const auto& cell : inViews)
    if (!inContiguous.count(cell)) ++elsewhere;
  std::string counts = "output cells that move: " + std::to_string(inViews.size()) + " in its views, " +
                       std::to_string(inContiguous.size()) + " in contiguous ones";
  if (inViews.empty() || elsewhere > 0) {
    log.push_back(at + counts + (inViews.empty() ? "" : ", " + std::to_string(elsewhere) + " of them only in its views") +
                  ": it reads other cells in its views");
    return std::nullopt;
  }
  log.push_back(at + counts + ", each of them in contiguous ones too: it reads its own cells");
  return counts + ", each of them in contiguous ones too (shown on " + "#" + std::to_string(strided.number) +
         "): the kernel reads the right cells of its views and computes them differently there";
}

}  // namespace kc::diagnose
