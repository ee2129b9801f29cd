#pragma once
// The standard contract catalogue (docs/catalog.md, `kcontract catalog` and `explain`), read
// from the shipped contracts/ folder: the classes (their rationale is the comment block
// directly above each), contracts/calibration.yaml (the calibration pairs) and
// contracts/incidents/*.md (the incidents that cite a class).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checker/calibration.h"
#include "compiler/pipeline.h"

namespace kc::check {

struct Incident {
  std::string path;   // relative to the data folder (stdlib/data_root.h)
  std::string title;  // its first heading
  std::string text;   // its first "**Contract:**" line (the IDs it cites), else the whole text
};

struct Entry {
  const sema::ContractInfo* info = nullptr;
  std::string file;       // relative to the data folder (stdlib/data_root.h)
  int line = 0;
  std::string rationale;  // the comment block above the declaration, markers removed
  std::string source;     // the declaration as written
  std::vector<const CalibrationEntry*> calibration;
  std::vector<const Incident*> incidents;
  bool shipped = true;  // declared under contracts/ (what docs/catalog.md lists)
};

struct Catalog {
  Compilation c;
  CalibrationManifest manifest;
  std::vector<Incident> incidents;
  std::vector<Entry> entries;  // classes first (by id), then contracts (by id)
};

// Compiles every contract under contracts/ into cat.c (the diagnostics stay in cat.c.diags
// for the caller to print) and reads the manifest and the incidents. False when the contracts
// have errors, or with `error` set when the manifest cannot be read.
// With `everything`, also the standard ops (stdlib/ops/) and every .kcontract under the -I
// folders, as entries with shipped = false: what `kcontract explain` and `kcontract ops` look
// up; the catalogue itself lists only the shipped ones.
bool loadCatalog(Catalog& cat, const std::vector<std::string>& includeDirs, bool warningsAsErrors, std::string& error,
                 bool everything = false);

// The entry `id` names: an ID (`std.op.rmsnorm@2`), one without its version (the newest), or an
// op (`rmsnorm`, `std.ops.rmsnorm`: its newest standard contract). nullptr when none.
const Entry* findEntry(const Catalog& cat, const std::string& id);

// `s` without trailing blanks and line ends.
std::string trimRight(std::string s);
// Its own signatures, else the checker's built-in ones its calibration pairs expect (markdown).
std::string signaturesOf(const Entry& e);
// One calibration pair, as the catalogue writes it (markdown).
std::string calibrationLine(const CalibrationEntry& m);

// docs/catalog.md, and one entry of `kcontract catalog --format json`.
std::string catalogMarkdown(const Catalog& cat);
nlohmann::ordered_json catalogEntryJson(const Entry& e);

}  // namespace kc::check
