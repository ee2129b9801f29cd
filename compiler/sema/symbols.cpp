#include "compiler/sema/symbols.h"

namespace kc::sema {

namespace {

// Where each declared name was written, for the note on a duplicate.
std::map<std::string, SourceRange>& namePlaces() {
  static thread_local std::map<std::string, SourceRange> places;
  return places;
}

template <class Decl>
bool declare(std::map<std::string, const Decl*>& table, const std::string& name, const Decl* decl, SourceRange at,
             const char* what, DiagnosticEngine& diags) {
  auto [it, fresh] = table.emplace(name, decl);
  std::string key = std::string(what) + " " + name;
  if (fresh) {
    namePlaces()[key] = at;
    return true;
  }
  Diagnostic& d = diags.report(DiagCode::DuplicateDefinition, at, std::string(what) + " '" + name + "' is declared twice");
  auto first = namePlaces().find(key);
  d.notes.push_back({first != namePlaces().end() ? first->second : it->second->range, "the first declaration is here"});
  return false;
}

}  // namespace

SymbolTable collectSymbols(const std::vector<const ast::File*>& files, DiagnosticEngine& diags) {
  SymbolTable t;
  namePlaces().clear();
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
