// The text form of measurement plans (`kcontract plan`): a header per contract and one
// table row per case. Seeds are counted here; `--json` lists them.
#include <sstream>

#include "compiler/plan/planner.h"

namespace kc::plan {

namespace {

std::string bytesText(uint64_t b) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (b == UINT64_MAX) return "overflow";
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024.0 && u < 6) v /= 1024.0, ++u;
  char buf[32];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string joinInts(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

void table(std::ostringstream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], r[i].size());
    }
  for (const auto& r : rows) {
    std::string line = "  ";
    for (size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - r[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

void planText(std::ostringstream& out, const Plan& p) {
  out << "plan " << p.contract;
  if (p.kernel.empty()) {
    out << ": no kernel in scope, no cases\n";
    return;
  }
  out << "  kernel " << p.kernel << "  seed " << p.seed << "  " << p.cases.size() << " case"
      << (p.cases.size() == 1 ? "" : "s");
  if (p.dropped) out << " (" << p.dropped << " of " << p.derived << " dropped: at most " << p.maxCases << " per contract)";
  if (p.breakingPre)
    out << " (" << p.breakingPre << " more left out: their dims break a precondition)";
  out << "\n";
  for (const auto& d : p.dims) {
    out << "  dim " << d.name << " in " << d.lo << ".." << d.hi << (d.narrowed ? " (scope)" : "") << ": "
        << joinInts(d.candidates);
    if (!d.tiles.empty()) out << "  tiles " << joinInts(d.tiles);
    out << "\n";
  }
  out << "  post";
  for (const auto& r : p.post) out << " " << r.index << (r.fromClass ? "=" + r.origin : "");
  out << "\n";
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"case", "why", "dims", "dtypes", "values", "layouts", "seeds", "rep", "perturb", "cells", "memory", "idx"});
  for (const auto& c : p.cases) {
    std::vector<std::string> r;
    r.push_back("#" + std::to_string(c.number));
    r.push_back(c.why);
    std::string s;
    for (const auto& [n, v] : c.dims) s += (s.empty() ? "" : " ") + n + "=" + std::to_string(v);
    r.push_back(s.empty() ? "-" : s);
    s.clear();
    for (const auto& [n, v] : c.dtypes) s += (s.empty() ? "" : " ") + n + "=" + v;
    r.push_back(s.empty() ? "-" : s);
    s.clear();
    for (const auto& [n, a] : c.values) s += (s.empty() ? "" : " ") + n + "=" + p.tensor(n)->values[a].text;
    r.push_back(s.empty() ? "-" : s);
    s.clear();
    for (const auto& [n, a] : c.layouts) {
      const Layout& l = p.tensor(n)->layouts[a];
      if (l.kind != "contiguous") s += (s.empty() ? "" : " ") + n + "=" + l.text;
    }
    r.push_back(s.empty() ? "contiguous" : s);
    r.push_back(std::to_string(c.seeds.size()));
    r.push_back(std::to_string(c.repeats));
    r.push_back(c.perturb);
    r.push_back(c.cells.text());
    r.push_back(bytesText(c.memoryBytes));
    r.push_back(c.largeIndex ? std::to_string(c.largeIndex) : "-");
    rows.push_back(std::move(r));
  }
  table(out, rows);
}

}  // namespace

std::string plansText(const std::vector<Plan>& plans) {
  std::ostringstream out;
  for (size_t i = 0; i < plans.size(); ++i) {
    if (i) out << "\n";
    planText(out, plans[i]);
  }
  return out.str();
}

}  // namespace kc::plan
