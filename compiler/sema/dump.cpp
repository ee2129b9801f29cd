#include "compiler/sema/dump.h"

#include <algorithm>
#include <sstream>

namespace kc::sema {

namespace {

std::string irText(const ir::Node& n, bool sexpr) { return sexpr ? ir::printSExpr(n) : ir::print(n); }


std::string values(const std::vector<ProtocolValue>& vs) {
  std::string s;
  for (size_t k = 0; k < vs.size(); ++k) s += (k ? " | " : "") + vs[k].str();
  return s;
}

std::string origin(const Origin& o) { return o.fromClass ? "  [from " + o.id + "]" : ""; }

void dumpKernel(std::ostringstream& out, const KernelInfo& k, bool sexpr) {
  out << "kernel " << k.name << "\n";
  for (const auto& v : k.dtypeVars) {
    out << "  dtype " << v.name << " in {";
    for (size_t i = 0; i < v.allowed.size(); ++i) out << (i ? ", " : "") << v.allowed[i];
    out << "}\n";
  }
  for (const auto& d : k.dims) {
    out << "  dim " << d.name << " in ";
    if (d.allowed.empty()) {
      out << d.lo << ".." << d.hi << (d.declared ? "" : " (default)");
    } else {
      out << "{";
      for (size_t i = 0; i < d.allowed.size(); ++i) out << (i ? ", " : "") << d.allowed[i];
      out << "}";
    }
    out << "\n";
  }
  for (const auto& t : k.tensors) {
    out << "  " << (t.output ? "out" : "in") << " #" << t.abiIndex << " " << t.name << ": " << t.dtype << "[";
    for (size_t i = 0; i < t.shape.size(); ++i) out << (i ? ", " : "") << irText(*t.shape[i], sexpr);
    out << "]\n";
  }
}

void dumpDefs(std::ostringstream& out, const char* what, const std::vector<Definition>& defs, bool sexpr) {
  for (const auto& d : defs) {
    out << "  " << what << " " << d.name;
    if (!d.indices.empty()) {
      out << "[";
      for (size_t i = 0; i < d.indices.size(); ++i)
        out << (i ? ", " : "") << d.indices[i] << " < " << irText(*d.extents[i], sexpr);
      out << "]";
    }
    out << " = " << irText(*d.value, sexpr) << "\n";
  }
}

void dumpContract(std::ostringstream& out, const ContractInfo& c, bool sexpr) {
  out << (c.isClass ? "class " : "contract ") << c.id << "\n";
  if (c.isClass) return;
  if (c.kernel) out << "  kernel " << c.kernel->name << "\n";
  for (const auto& a : c.applies) out << "  applies " << a << "\n";
  for (const auto& b : c.scope.backends) out << "  backend " << b << "\n";
  for (const auto& l : c.scope.layouts) out << "  scope layout " << l.target << ": " << values(l.values) << "\n";
  for (const auto& d : c.scope.dims) out << "  scope dim " << d.name << " in " << d.lo << ".." << d.hi << "\n";
  for (const auto& [v, ds] : c.scope.dtypes) {
    out << "  scope dtype " << v << " in {";
    for (size_t i = 0; i < ds.size(); ++i) out << (i ? ", " : "") << ds[i];
    out << "}\n";
  }
  for (const auto& p : c.pre) out << "  pre " << irText(*p.expr, sexpr) << origin(p.origin) << "\n";
  out << "  oracle precision " << c.oraclePrecision << " (" << c.oracleBits << " bits)\n";
  dumpDefs(out, "oracle", c.oracle, sexpr);
  dumpDefs(out, "tolerance", c.tolerance, sexpr);
  for (const auto& p : c.post) out << "  post " << irText(*p.expr, sexpr) << origin(p.origin) << "\n";
  const ProtocolInfo& pr = c.protocol;
  if (!pr.seeds.empty()) out << "  protocol seeds " << values(pr.seeds) << "\n";
  if (!pr.repeats.empty()) out << "  protocol repeats " << values(pr.repeats) << "\n";
  for (const auto& b : pr.dims) out << "  protocol dims " << b.target << " in " << values(b.values) << origin(b.origin) << "\n";
  for (const auto& b : pr.values) out << "  protocol values " << b.target << " ~ " << values(b.values) << origin(b.origin) << "\n";
  for (const auto& b : pr.layouts) out << "  protocol layouts " << b.target << " in " << values(b.values) << origin(b.origin) << "\n";
  if (!pr.cells.empty()) out << "  protocol cells " << values(pr.cells) << "\n";
  for (const auto& b : pr.perturb) out << "  protocol perturb " << values(b.values) << origin(b.origin) << "\n";
  for (const auto& ec : pr.cases) {
    out << "  protocol case";
    const char* sep = " ";
    for (const auto& b : ec.dims) out << sep << b.target << " in " << values(b.values), sep = ", ";
    for (const auto& b : ec.values) out << sep << b.target << " ~ " << values(b.values), sep = ", ";
    out << origin(ec.origin) << "\n";
  }
  for (const auto& s : c.signatures) {
    out << "  signature " << s.name << origin(s.origin) << "\n";
    for (const auto& cl : s.clauses) {
      out << "    ";
      switch (cl.kind) {
        case ast::SignatureClauseKind::FailsWhen: out << "fails when " << irText(*cl.expr, sexpr); break;
        case ast::SignatureClauseKind::FailsOnlyWhen: out << "fails only when " << irText(*cl.expr, sexpr); break;
        case ast::SignatureClauseKind::WrongCells: out << "wrong cells of " << cl.dim << ": " << irText(*cl.expr, sexpr); break;
        case ast::SignatureClauseKind::ErrorGrows: out << "error grows with " << cl.dim; break;
        case ast::SignatureClauseKind::DiffersRunToRun: out << "differs run to run"; break;
        case ast::SignatureClauseKind::ErrorBound: out << "error " << cl.compareOp << " " << irText(*cl.expr, sexpr); break;
      }
      out << "\n";
    }
  }
}

bool inFiles(const SourceRange& r, const std::vector<uint32_t>& files) {
  return std::find(files.begin(), files.end(), r.file) != files.end();
}

}  // namespace

std::string dumpProgram(const Program& program, const std::vector<uint32_t>& files, bool sexpr) {
  std::ostringstream out;
  for (const auto& k : program.kernels)
    if (inFiles(k->range, files)) dumpKernel(out, *k, sexpr);
  for (const auto& c : program.contracts)
    if (inFiles(c->range, files)) dumpContract(out, *c, sexpr);
  return out.str();
}

}  // namespace kc::sema
