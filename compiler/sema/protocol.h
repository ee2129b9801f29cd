#pragma once
// Pass 5b — protocol: the measurement protocol of a contract (and of the classes it
// applies) with every name checked: dims are the kernel's and inside their ranges,
// value distributions, layouts, cell selections and perturbations are ones the checker
// knows. The planner expands these choices into cases.
#include "compiler/diag/diagnostics.h"
#include "compiler/sema/model.h"

namespace kc::sema {

void lowerProtocol(const ast::ProtocolSection& section, const KernelInfo& kernel, const Origin& origin,
                   ProtocolInfo& out, DiagnosticEngine& diags);

// `layout x: strided` in a scope: the layouts the kernel claims to accept.
ProtocolBinding lowerLayoutScope(const ast::LayoutBinding& b, const KernelInfo& kernel, const Origin& origin,
                                 DiagnosticEngine& diags);

// The names the protocol knows, for messages and docs.
const std::vector<std::string>& knownDistributions();
const std::vector<std::string>& knownLayouts();

}  // namespace kc::sema
