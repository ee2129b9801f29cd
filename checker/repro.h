#pragma once
// Reproducers: every non-PASS result carries one line that `kcontract replay` accepts and
// that rebuilds the case's inputs byte for byte from the seed (the digest of the inputs is
// in the line and checked on replay). Form:
//   kcontract replay 'file=F contract=ID case=N seed-index=K base-seed=S impl=PATH:ENTRY
//                     backend=B inputs=fnv1a64:HEX [marks=HEX16] [timeout=T] [include=DIR]...
//                     [problem=DIM:N,...] [bind=INPUT:ATTR,...] [dir=DIR]'
// marks= is the run's marks key (checker/run/marks.h: its poison, canaries and names); a
// replay uses it, and one without it draws the key from the seed as the check did.
// Values are percent-encoded where they hold a space, a quote or a percent sign.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kc::check {

struct Repro {
  std::string file;      // the .kcontract that declares the contract
  std::string contract;  // its ID
  size_t caseNumber = 0;
  size_t seedIndex = 0;
  uint64_t baseSeed = 0;
  std::string impl;   // the implementation path
  std::string entry;  // its entry point
  std::string backend;
  std::string inputs;  // fnv1a64:HEX of every input's bytes, in ABI order
  std::string marks;   // the run's marks key, 16 hex digits ("" when the reproducer has none)
  double timeout = 0;  // 0: the default
  std::vector<std::string> includeDirs;
  std::vector<std::pair<std::string, int64_t>> problemDims;  // problem=R:16,H:4096 (check --problem-shape)
  std::vector<std::pair<std::string, std::string>> bind;     // bind=weight:ln.weight,... (a suite's bind:, --bind)
  // dir=: the folder the check ran in, when some path above is relative; replay resolves them
  // from it, so a reproducer works from any folder ("" in older reproducers: from where replay runs).
  std::string dir;
};

// The reproducer with its relative paths (file, impl, includes) made absolute from `dir`.
Repro resolvedFromDir(Repro r);

std::string formatRepro(const Repro& r);
// Accepts the line as formatRepro writes it (with or without the leading `kcontract replay`
// and the quotes), or a JSON Lines result that holds one in its "repro" field.
std::optional<Repro> parseRepro(const std::string& text, std::string& error);

// The digest the `inputs=` field holds: FNV-1a 64 over each input's storage bytes.
std::string inputsDigest(const std::vector<std::vector<uint8_t>>& inputs);

}  // namespace kc::check
