#include "checker/report/html_plots.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "checker/report/junit.h"
#include "checker/report/text.h"

namespace kc::report {

namespace {

std::string esc(std::string_view s) { return xmlEscape(s, true); }

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string ratioText(double v) {
  if (std::isinf(v)) return "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// The dims of the cases in order of first appearance, each with its distinct values (sorted).
std::vector<std::pair<std::string, std::vector<int64_t>>> dimValues(const std::vector<const CaseResult*>& cases) {
  std::vector<std::pair<std::string, std::set<int64_t>>> dims;
  for (const CaseResult* r : cases)
    for (const auto& [name, value] : r->dims) {
      auto it = std::find_if(dims.begin(), dims.end(), [&](const auto& d) { return d.first == name; });
      if (it == dims.end()) it = dims.insert(dims.end(), {name, {}});
      it->second.insert(value);
    }
  std::vector<std::pair<std::string, std::vector<int64_t>>> out;
  for (auto& [name, values] : dims) out.push_back({name, std::vector<int64_t>(values.begin(), values.end())});
  return out;
}

std::optional<int64_t> dimOf(const CaseResult& r, const std::string& name) {
  for (const auto& [n, v] : r.dims)
    if (n == name) return v;
  return std::nullopt;
}

}  // namespace

std::string_view verdictColor(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "#2e7d32";
    case Verdict::Fail: return "#c62828";
    case Verdict::Crash: return "#6a1b9a";
    case Verdict::Timeout: return "#ad1457";
    case Verdict::Error: return "#4e342e";
    case Verdict::Mistrusted: return "#ef6c00";
    case Verdict::Skipped:
    case Verdict::Unknown: return "#9e9e9e";
  }
  return "#9e9e9e";
}

std::string verdictMapSvg(const std::vector<const CaseResult*>& cases) {
  auto dims = dimValues(cases);
  if (dims.empty()) return "<p class=\"note\">The contract has no dims: there is no map.</p>\n";
  // The two dims with the most distinct values: the most across (a wide map fits a page), the next down.
  std::vector<size_t> order(dims.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return dims[a].second.size() > dims[b].second.size(); });
  const size_t ax = order[0], ay = order.size() > 1 ? order[1] : order[0];
  const auto& xs = dims[ax].second;
  const bool oneDim = order.size() == 1;
  const std::vector<int64_t> ys = oneDim ? std::vector<int64_t>{0} : dims[ay].second;

  struct Cell {
    Verdict worst = Verdict::Skipped;
    bool any = false;
    std::vector<size_t> numbers;
  };
  std::map<std::pair<size_t, size_t>, Cell> cells;
  for (const CaseResult* r : cases) {
    auto x = dimOf(*r, dims[ax].first);
    auto y = oneDim ? std::optional<int64_t>(0) : dimOf(*r, dims[ay].first);
    if (!x || !y) continue;
    size_t i = static_cast<size_t>(std::lower_bound(xs.begin(), xs.end(), *x) - xs.begin());
    size_t j = static_cast<size_t>(std::lower_bound(ys.begin(), ys.end(), *y) - ys.begin());
    Cell& c = cells[{i, j}];
    c.worst = c.any ? worseVerdict(c.worst, r->verdict) : r->verdict;
    c.any = true;
    c.numbers.push_back(r->number);
  }

  const double cell = std::clamp(640.0 / static_cast<double>(std::max(xs.size(), ys.size())), 8.0, 26.0);
  const double left = oneDim ? 20 : 70, top = 20, bottom = 50;
  const double w = left + cell * static_cast<double>(xs.size()) + 20;
  const double h = top + cell * static_cast<double>(ys.size()) + bottom;
  std::string s = "<svg class=\"map\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w) + "\" height=\"" + num(h) +
                  "\" role=\"img\" aria-label=\"verdicts over " + esc(dims[ax].first) +
                  (oneDim ? "" : " and " + esc(dims[ay].first)) + "\">\n";
  for (const auto& [at, c] : cells) {
    std::string title = dims[ax].first + "=" + std::to_string(xs[at.first]);
    if (!oneDim) title += ", " + dims[ay].first + "=" + std::to_string(ys[at.second]);
    title += ": " + std::string(verdictName(c.worst)) + " (case";
    title += c.numbers.size() == 1 ? " #" : "s #";
    for (size_t k = 0; k < c.numbers.size() && k < 12; ++k) title += (k ? ", #" : "") + std::to_string(c.numbers[k]);
    if (c.numbers.size() > 12) title += ", ...";
    title += ")";
    s += "<rect class=\"cell\" data-verdict=\"" + std::string(verdictName(c.worst)) + "\" x=\"" +
         num(left + cell * static_cast<double>(at.first)) + "\" y=\"" + num(top + cell * static_cast<double>(at.second)) +
         "\" width=\"" + num(cell - 1) + "\" height=\"" + num(cell - 1) + "\" fill=\"" + std::string(verdictColor(c.worst)) +
         "\"><title>" + esc(title) + "</title></rect>\n";
  }
  // Tick labels: every value when they fit, else about 12 of them.
  auto every = [](size_t n) { return std::max<size_t>(1, (n + 11) / 12); };
  for (size_t i = 0; i < xs.size(); i += every(xs.size())) {
    double x = left + cell * (static_cast<double>(i) + 0.5), y = top + cell * static_cast<double>(ys.size()) + 6;
    s += "<text class=\"tick\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" transform=\"rotate(60 " + num(x) + " " + num(y) +
         ")\">" + std::to_string(xs[i]) + "</text>\n";
  }
  if (!oneDim)
    for (size_t j = 0; j < ys.size(); j += every(ys.size()))
      s += "<text class=\"tick\" text-anchor=\"end\" x=\"" + num(left - 4) + "\" y=\"" +
           num(top + cell * (static_cast<double>(j) + 0.5) + 4) + "\">" + std::to_string(ys[j]) + "</text>\n";
  s += "<text class=\"axis\" x=\"" + num(left) + "\" y=\"12\">" + esc(dims[ax].first) + " \xE2\x86\x92" +
       (oneDim ? "" : "   " + esc(dims[ay].first) + " \xE2\x86\x93") + "</text>\n";
  s += "</svg>\n";
  return s;
}

std::string toleranceSvg(const std::vector<const CaseResult*>& cases) {
  std::vector<const CaseResult*> shown;
  for (const CaseResult* r : cases)
    if (r->compared > 0 && !std::isnan(r->toleranceUsed)) shown.push_back(r);
  const size_t left_out = cases.size() - shown.size();
  std::string note = left_out == 0 ? "" : "<p class=\"note\">" + std::to_string(left_out) +
                                              (left_out == 1 ? " case" : " cases") +
                                              " compared no cells (crashed, skipped or not run) and are not plotted.</p>\n";
  if (shown.empty()) return note;
  // Decades from the smallest finite nonzero ratio to the largest, always around 1, within 1e-12..1e12.
  double lo = 0, hi = 0;  // log10
  for (const CaseResult* r : shown) {
    double v = r->toleranceUsed;
    if (v > 0 && std::isfinite(v)) lo = std::min(lo, std::floor(std::log10(v))), hi = std::max(hi, std::ceil(std::log10(v)));
  }
  lo = std::max(lo - 1, -12.0), hi = std::min(std::max(hi, 1.0), 12.0);
  const double left = 60, right = 20, top = 16, plotH = 220, bottom = 34;
  const double step = std::clamp(720.0 / static_cast<double>(shown.size()), 2.0, 24.0);
  const double plotW = step * static_cast<double>(shown.size());
  const double w = left + plotW + right, h = top + plotH + bottom;
  auto yOf = [&](double v) {
    double l = v <= 0 ? lo : std::isinf(v) ? hi : std::clamp(std::log10(v), lo, hi);
    return top + plotH * (hi - l) / (hi - lo);
  };
  std::string s = "<svg class=\"ratio\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w) + "\" height=\"" + num(h) +
                  "\" role=\"img\" aria-label=\"error over tolerance per case, log scale\">\n";
  for (double d = lo; d <= hi; d += 1) {  // a grid line per decade (labelled every other one when crowded)
    double y = yOf(std::pow(10.0, d));
    s += "<line class=\"grid\" x1=\"" + num(left) + "\" x2=\"" + num(left + plotW) + "\" y1=\"" + num(y) + "\" y2=\"" +
         num(y) + "\"/>\n";
    if (hi - lo <= 12 || static_cast<long>(d) % 2 == 0)
      s += "<text class=\"tick\" text-anchor=\"end\" x=\"" + num(left - 4) + "\" y=\"" + num(y + 4) + "\">" +
           (d == lo ? "\xE2\x89\xA4" : "") + "1e" + std::to_string(static_cast<long>(d)) + "</text>\n";
  }
  double one = yOf(1.0);
  s += "<line class=\"tol\" x1=\"" + num(left) + "\" x2=\"" + num(left + plotW) + "\" y1=\"" + num(one) + "\" y2=\"" +
       num(one) + "\"/>\n<text class=\"axis\" x=\"" + num(left + plotW - 4) + "\" y=\"" + num(one - 4) +
       "\" text-anchor=\"end\">tolerance</text>\n";
  for (size_t i = 0; i < shown.size(); ++i) {
    const CaseResult& r = *shown[i];
    double x = left + step * (static_cast<double>(i) + 0.5), y = yOf(r.toleranceUsed);
    std::string title = r.caseId + ": " + std::string(verdictName(r.verdict)) + ", error/tolerance " +
                        (r.toleranceUsed <= 0 ? std::string("0") : ratioText(r.toleranceUsed));
    std::string shape = std::isinf(r.toleranceUsed)
                            ? "<path d=\"M" + num(x - 4) + " " + num(y + 6) + " L" + num(x + 4) + " " + num(y + 6) + " L" +
                                  num(x) + " " + num(y - 1) + " Z\""
                            : "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"3\"";
    s += shape + " class=\"point\" data-case=\"" + std::to_string(r.number) + "\" data-verdict=\"" +
         std::string(verdictName(r.verdict)) + "\" fill=\"" + std::string(verdictColor(r.verdict)) + "\"><title>" +
         esc(title) + "</title>" + (std::isinf(r.toleranceUsed) ? "</path>\n" : "</circle>\n");
  }
  s += "<text class=\"axis\" x=\"" + num(left) + "\" y=\"" + num(h - 8) + "\">cases in the order they ran (" +
       std::to_string(shown.size()) + "); up: error \xC3\xB7 tolerance, log scale</text>\n</svg>\n";
  return s + note;
}

}  // namespace kc::report
