#include "compiler/sema/symbols.h"

namespace kc::sema {

namespace {

template <class Decl>
bool declare(std::map<std::string, const Decl*>& table, const std::string& name, const Decl* decl, SourceRange at,
             const char* what, DiagnosticEngine& diags) {
  auto [it, fresh] = table.emplace(name, decl);
  if (fresh) return true;
  Diagnostic& d = diags.report(DiagCode::DuplicateDefinition, at, std::string(what) + " '" + name + "' is declared twice");
  d.notes.push_back({it->second->range, "the first declaration is here"});
  return false;
}

}  // namespace

SymbolTable collectSymbols(const std::vector<const ast::File*>& files, DiagnosticEngine& diags) {
  SymbolTable t;
  for (const ast::File* f : files) {
    for (const auto& item : f->items) {
      switch (item->kind) {
        case ast::ItemKind::Import: break;
        case ast::ItemKind::Kernel: {
          const auto* k = static_cast<const ast::KernelDecl*>(item.get());
          if (declare(t.kernels, k->name.name, k, k->name.range, "kernel", diags)) t.kernelOrder.push_back(k);
          break;
        }
        case ast::ItemKind::Op: {
          const auto* o = static_cast<const ast::OpDecl*>(item.get());
          if (declare(t.ops, o->name.text, o, o->name.range, "op", diags)) t.opOrder.push_back(o);
          break;
        }
        case ast::ItemKind::Contract:
        case ast::ItemKind::Class: {
          const auto* c = static_cast<const ast::ContractDecl*>(item.get());
          const char* what = item->kind == ast::ItemKind::Class ? "class" : "contract";
          if (declare(t.contracts, c->id.str(), c, c->id.range, what, diags)) t.contractOrder.push_back(c);
          break;
        }
      }
    }
  }
  return t;
}

}  // namespace kc::sema
