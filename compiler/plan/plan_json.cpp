// The JSON form of measurement plans (`kcontract plan --json`). Keys keep their insertion
// order; an array or object whose one-line form fits in kWidth characters is printed on one
// line, so a case reads as a few lines and the output stays byte-stable.
#include <sstream>

#include "compiler/plan/planner.h"

namespace kc::plan {

namespace {

using J = nlohmann::ordered_json;
using VK = sema::ProtocolValue::Kind;
constexpr size_t kWidth = 100;

J valueJson(const sema::ProtocolValue& v);

J argsJson(const sema::ProtocolValue& v) {
  J args = J::array();
  for (const auto& [name, values] : v.args) {
    J vs = J::array();
    for (const auto& x : values) vs.push_back(valueJson(x));
    args.push_back(J{{"name", name}, {"values", vs}});
  }
  return args;
}

// Numbers as numbers (a percentage as its fraction: 1% is 0.01), names and strings as
// strings, ranges as {"lo", "hi"}, calls as {"name", "args"}, expressions over dims as {"expr"}.
J valueJson(const sema::ProtocolValue& v) {
  switch (v.kind) {
    case VK::Int: return v.percent ? J(static_cast<double>(v.i) / 100.0) : J(v.i);
    case VK::Real: return J(v.percent ? v.d / 100.0 : v.d);
    case VK::Range: return J{{"lo", v.i}, {"hi", v.hi}};
    case VK::Name:
    case VK::String: return J(v.name);
    case VK::Call: return J{{"name", v.name}, {"args", argsJson(v)}};
    case VK::Expr: return J{{"expr", v.str()}};
  }
  return J();
}

J distributionJson(const Distribution& d) {
  J j;
  j["text"] = d.text;
  if (d.constant) {
    j["kind"] = "constant";
    j["value"] = valueJson(d.value);
  } else {
    j["kind"] = d.special ? "special" : "distribution";
    j["name"] = d.value.kind == VK::Call || d.value.kind == VK::Name ? d.value.name : d.text;
    j["args"] = d.value.kind == VK::Call ? argsJson(d.value) : J::array();
  }
  if (d.special) j["base"] = d.baseText;
  j["origin"] = d.origin;
  return j;
}

// One-line form: separators ", " and ": ".
void compact(const J& j, std::string& out) {
  if (j.is_object()) {
    out += "{";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      out += first ? "" : ", ";
      first = false;
      out += J(it.key()).dump() + ": ";
      compact(it.value(), out);
    }
    out += "}";
  } else if (j.is_array()) {
    out += "[";
    for (size_t i = 0; i < j.size(); ++i) {
      out += i ? ", " : "";
      compact(j[i], out);
    }
    out += "]";
  } else {
    out += j.dump();
  }
}

void pretty(const J& j, size_t indent, size_t column, std::string& out) {
  std::string one;
  compact(j, one);
  if (!j.is_structured() || j.empty() || column + one.size() <= kWidth) {
    out += one;
    return;
  }
  std::string pad(indent + 2, ' ');
  if (j.is_object()) {
    out += "{\n";
    size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
      std::string key = J(it.key()).dump() + ": ";
      out += pad + key;
      pretty(it.value(), indent + 2, pad.size() + key.size(), out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + "}";
  } else {
    out += "[\n";
    for (size_t i = 0; i < j.size(); ++i) {
      out += pad;
      pretty(j[i], indent + 2, pad.size(), out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + "]";
  }
}

}  // namespace

nlohmann::ordered_json planJson(const Plan& p) {
  J j;
  j["contract"] = p.contract;
  j["kernel"] = p.kernel.empty() ? J() : J(p.kernel);
  j["seed"] = p.seed;
  j["cases_derived"] = p.derived;
  j["cases_kept"] = p.cases.size();
  j["cases_dropped"] = p.dropped;
  if (p.breakingPre) j["cases_breaking_pre"] = p.breakingPre;
  j["max_cases"] = p.maxCases;
  J dims = J::array();
  for (const auto& d : p.dims) {
    J dj;
    dj["name"] = d.name;
    dj["lo"] = d.lo;
    dj["hi"] = d.hi;
    dj["range"] = d.narrowed ? "scope" : d.declared ? "kernel" : "default";
    dj["tiles"] = d.tiles;
    dj["candidates"] = d.candidates;
    dims.push_back(dj);
  }
  j["dims"] = dims;
  J dts = J::array();
  for (const auto& v : p.dtypeVars) dts.push_back(J{{"name", v.name}, {"allowed", v.allowed}});
  j["dtypes"] = dts;
  J tensors = J::array();
  for (const auto& t : p.tensors) {
    J tj;
    tj["name"] = t.name;
    tj["role"] = t.output ? "output" : "input";
    tj["dtype"] = t.dtype;
    tj["scalar"] = t.scalar;
    if (!t.output) {
      J vs = J::array();
      for (const auto& d : t.values) vs.push_back(distributionJson(d));
      tj["values"] = vs;
    }
    if (!t.scalar) {
      J ls = J::array();
      for (const auto& l : t.layouts) {
        J lj{{"text", l.text}, {"kind", l.kind}};
        if (l.kind != "contiguous" && l.kind != "transposed") lj["n"] = l.n;
        if (!l.origins.empty()) lj["origins"] = l.origins;
        ls.push_back(lj);
      }
      tj["layouts"] = ls;
    }
    tensors.push_back(tj);
  }
  j["tensors"] = tensors;
  J perturb = J::array();
  for (const auto& x : p.perturb) {
    J xj{{"text", x.text}};
    if (!x.origins.empty()) xj["origins"] = x.origins;
    perturb.push_back(xj);
  }
  j["perturb"] = perturb;
  j["everywhere"] = p.everywhere;
  J post = J::array();
  for (const auto& r : p.post)
    post.push_back(J{{"index", r.index}, {"origin", r.origin}, {"from_class", r.fromClass}, {"text", r.text}});
  j["post"] = post;
  J cases = J::array();
  for (const auto& c : p.cases) {
    J cj;
    cj["id"] = c.id;
    cj["why"] = c.why;
    J dims = J::object();
    for (const auto& [n, v] : c.dims) dims[n] = v;
    cj["dims"] = dims;
    J dtypes = J::object();
    for (const auto& [n, v] : c.dtypes) dtypes[n] = v;
    cj["dtypes"] = dtypes;
    J values = J::object();
    for (const auto& [n, a] : c.values) values[n] = p.tensor(n)->values[a].text;
    cj["values"] = values;
    J layouts = J::object();
    for (const auto& [n, a] : c.layouts) layouts[n] = p.tensor(n)->layouts[a].text;
    cj["layouts"] = layouts;
    cj["seeds"] = c.seeds;
    cj["repeats"] = c.repeats;
    cj["perturb"] = c.perturb;
    if (c.cells.all) {
      cj["cells"] = "all";
    } else {
      cj["cells"] = J{{"sample", c.cells.sample}, {"boundary", c.cells.boundary}};
    }
    cj["origins"] = c.origins;
    cj["post"] = c.post;
    cj["memory_bytes"] = c.memoryBytes;
    cj["max_elements"] = c.maxElements;
    cj["large_index"] = c.largeIndex;
    cj["tail"] = c.tail;
    cases.push_back(cj);
  }
  j["cases"] = cases;
  return j;
}

std::string plansJson(const std::vector<Plan>& plans) {
  J root;
  J list = J::array();
  for (const auto& p : plans) list.push_back(planJson(p));
  root["plans"] = list;
  std::string out;
  pretty(root, 0, 0, out);
  return out + "\n";
}

}  // namespace kc::plan
