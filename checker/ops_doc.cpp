// The generated tables of docs/ops.md.
#include "checker/ops_doc.h"

#include <map>
#include <sstream>

namespace kc::check {

namespace {

// A table cell: '|' would end it.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    if (c == '\n') {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

// kc_softmax(x: T[R, H]) -> (y: T[R, H]): the entry and its tensors in ABI order.
std::string kernelSignature(const std::string& op, const sema::KernelInfo& k) {
  auto tensor = [](const sema::TensorInfo& t) {
    std::string s = t.name + ": " + t.dtype;
    if (!t.shape.empty()) {
      s += "[";
      for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + ir::print(*t.shape[i]);
      s += "]";
    }
    return s;
  };
  std::string in, out;
  for (const auto& t : k.tensors) (t.output ? out : in) += ((t.output ? out : in).empty() ? "" : ", ") + tensor(t);
  return "kc_" + op + "(" + in + ") -> (" + out + ")";
}

// T in {f32, bf16, f16}; I in {i32, i64}: the dtype variables as the contract's scope narrows them.
std::string dtypes(const sema::ContractInfo& ct) {
  std::string s;
  for (const auto& v : ct.kernel->dtypeVars) {
    auto narrowed = ct.scope.dtypes.find(v.name);
    const auto& allowed = narrowed != ct.scope.dtypes.end() ? narrowed->second : v.allowed;
    std::string set;
    for (const auto& d : allowed) set += (set.empty() ? "" : ", ") + d;
    s += (s.empty() ? "" : "; ") + v.name + " in {" + set + "}";
  }
  return s.empty() ? "fixed" : s;
}

std::string tolerance(const sema::ContractInfo& ct) {
  std::string s;
  for (const auto& d : ct.tolerance) {
    std::string lhs = d.name;
    if (!d.indices.empty()) {
      lhs += "[";
      for (size_t i = 0; i < d.indices.size(); ++i) lhs += (i ? ", " : "") + d.indices[i];
      lhs += "]";
    }
    s += (s.empty() ? "" : "; ") + lhs + " = " + ir::print(*d.value);
  }
  return s.empty() ? "exact" : s;
}

// std.exc.nan-propagation@2 -> nan-propagation@2
std::string classes(const sema::ContractInfo& ct) {
  std::string s;
  for (const auto& id : ct.applies) {
    size_t dot = id.rfind('.', id.find('@'));
    s += (s.empty() ? "" : ", ") + id.substr(dot == std::string::npos ? 0 : dot + 1);
  }
  return s.empty() ? "—" : s;
}

}  // namespace

std::string opsMarkdown(const Catalog& cat, const std::vector<std::string>& ops, const KernelBenchTable& table) {
  std::map<std::string, std::string> problemsOf;  // op -> "1, 2, 6"
  int covered = 0;
  for (const auto& p : table.problems) {
    if (p.op.empty()) continue;
    ++covered;
    problemsOf[p.op] += (problemsOf[p.op].empty() ? "" : ", ") + std::to_string(p.number);
  }
  std::ostringstream out;
  out << kOpsDocBegin << "\n\n## The library at a glance\n\n"
      << ops.size() << " standard ops. Each row: the op, its newest standard contract (what `check --op NAME` uses),\n"
      << "the kernel's entry and arguments (inputs, then outputs: the ABI order), the dtypes its scope admits, the\n"
      << "tolerance as the compiler reads it, the classes it applies, its own signatures, its calibration pairs\n"
      << "(`contracts/calibration.yaml`) and the KernelBench level-1 problems it checks (the table below).\n\n"
      << "| op | contract | kernel | dtypes | tolerance | classes | signatures | pairs | KernelBench |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& name : ops) {
    const Entry* e = findEntry(cat, name);
    if (!e || !e->info->kernel) continue;
    const sema::ContractInfo& ct = *e->info;
    out << "| `" << name << "` | `" << ct.id << "` | `" << cell(kernelSignature(name, *ct.kernel)) << "` | "
        << cell(dtypes(ct)) << " | `" << cell(tolerance(ct)) << "` | " << cell(classes(ct)) << " | "
        << cell(signaturesOf(*e)) << " | " << e->calibration.size() << " | "
        << (problemsOf.count(name) ? problemsOf[name] : "—") << " |\n";
  }
  out << "\n## KernelBench level 1\n\n"
      << "Every problem of KernelBench's level 1 (`KernelBench/level1/`), with the standard contract that checks\n"
      << "it and the problem's own shape in the op's dims (`check --op NAME --problem-shape` runs a problem file\n"
      << "at it: docs/backends.md), or the reason it has none. " << covered << " of " << table.problems.size()
      << " problems have a standard contract. The table is `stdlib/ops/kernelbench_level1.yaml`; `kcontract ops\n"
      << "--format md` refuses a table whose ops, dims or sizes disagree with the library.\n\n"
      << "| # | problem | contract | shape | how, or why not |\n|---|---|---|---|---|\n";
  for (const auto& p : table.problems) {
    std::string name = p.file.substr(0, p.file.size() - 3);
    out << "| " << p.number << " | " << cell(name) << " | ";
    if (p.op.empty()) {
      out << "— | — | " << cell(p.reason) << " |\n";
      continue;
    }
    const Entry* e = findEntry(cat, p.op);
    std::string shape;
    for (const auto& d : e->info->kernel->dims) {
      auto size = p.dims.find(d.name);  // checkAgainstLibrary refuses a table that lacks one
      shape += (shape.empty() ? "" : ", ") + d.name + " = " + (size == p.dims.end() ? "?" : std::to_string(size->second));
    }
    out << "`" << e->info->id << "` | " << shape << " | " << cell(p.how) << " |\n";
  }
  out << "\n" << kOpsDocEnd << "\n";
  return out.str();
}

bool spliceOpsDoc(const std::string& page, const std::string& block, std::string& out, std::string& error) {
  auto lineAt = [&](const std::string& marker, size_t& pos) {
    size_t count = 0;
    for (size_t at = page.find(marker); at != std::string::npos; at = page.find(marker, at + 1)) {
      ++count;
      pos = at;
    }
    if (count != 1) error = std::string("the page must hold the line '") + marker + "' once; it holds it " + std::to_string(count) + " times";
    return count == 1;
  };
  size_t begin = 0, end = 0;
  if (!lineAt(kOpsDocBegin, begin) || !lineAt(kOpsDocEnd, end)) return false;
  if (end < begin) {
    error = "the end marker comes before the begin marker";
    return false;
  }
  size_t after = page.find('\n', end);
  after = after == std::string::npos ? page.size() : after + 1;
  out = page.substr(0, begin) + block + page.substr(after);
  return true;
}

}  // namespace kc::check
