#include "mutate/mutant.h"

#include <algorithm>
#include <map>

namespace kc::mutate {

namespace {

std::string applyEdits(const std::string& text, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  std::string out = text;
  for (const auto& e : edits) out.replace(e.begin, e.end - e.begin, e.replacement);
  return out;
}

// The line of `text` holding byte `offset`: [begin, end) without the newline.
std::pair<size_t, size_t> lineAround(const std::string& text, size_t offset) {
  size_t b = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  b = (b == std::string::npos || offset == 0) ? 0 : b + 1;
  size_t e = text.find('\n', offset);
  return {b, e == std::string::npos ? text.size() : e};
}

}  // namespace

std::string mutantSource(const KernelAst& ast, const Mutant& m) {
  std::vector<Edit> edits = m.edits;
  for (const auto& inc : ast.includes) edits.push_back({inc.begin, inc.end, "\"" + inc.resolved + "\""});
  return applyEdits(ast.text, edits);
}

std::string mutantDiff(const KernelAst& ast, const Mutant& m) {
  // The original lines the edits touch, [first line start, last line end).
  size_t lo = ast.text.size(), hi = 0;
  for (const auto& e : m.edits) {
    lo = std::min(lo, lineAround(ast.text, e.begin).first);
    hi = std::max(hi, lineAround(ast.text, e.end > e.begin ? e.end - 1 : e.begin).second);
  }
  if (lo > hi) return "";
  std::vector<Edit> local;
  for (const auto& e : m.edits) local.push_back({e.begin - lo, e.end - lo, e.replacement});
  std::string before = ast.text.substr(lo, hi - lo);
  std::string after = applyEdits(before, local);
  int line = 0, column = 0;
  lineColumn(ast.text, lo, line, column);
  auto prefixed = [](const std::string& block, char mark) {
    std::string out;
    size_t at = 0;
    while (at <= block.size()) {
      size_t nl = block.find('\n', at);
      if (nl == std::string::npos) nl = block.size();
      out += mark + block.substr(at, nl - at) + "\n";
      at = nl + 1;
    }
    return out;
  };
  return "@@ " + ast.path + ":" + std::to_string(line) + " @@\n" + prefixed(before, '-') + prefixed(after, '+');
}

void assignIds(const KernelAst& ast, std::vector<Mutant>& mutants) {
  std::stable_sort(mutants.begin(), mutants.end(), [](const Mutant& a, const Mutant& b) {
    size_t pa = a.edits.empty() ? 0 : a.edits.front().begin, pb = b.edits.empty() ? 0 : b.edits.front().begin;
    return pa != pb ? pa < pb : a.op < b.op;
  });
  std::map<std::string, int> seen;
  for (auto& m : mutants) {
    size_t at = m.edits.empty() ? 0 : m.edits.front().begin;
    lineColumn(ast.text, at, m.line, m.column);
    std::string base = m.op + "@" + std::to_string(m.line) + ":" + std::to_string(m.column);
    int n = ++seen[base];
    m.id = n == 1 ? base : base + "#" + std::to_string(n);
  }
}

}  // namespace kc::mutate
