#pragma once
// The integrity chain of a results file (docs/security.md, "Results files"). Every record a
// chained format writes (JSON Lines) is a JSON object that ends with
//   ,"chain":"D"}      D = hex SHA-256 of (the previous record's D, "\n", this record's text
//                      without its ,"chain":"D" part); the first record of a file has no
//                      previous D and chains from "".
// The first record a run writes also carries ,"run":"N" (before "chain"): N is 16 random
// bytes, hex, drawn when the run starts, so records of one run cannot be spliced into
// another's file and a file that begins with no run is not one kcontract wrote. A resumed
// run continues the chain from the file's last record and starts its own run.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kc::report {

// Lowercase hex SHA-256 of `bytes` (OpenSSL libcrypto).
std::string sha256Hex(std::string_view bytes);
// 16 bytes from the kernel's random source (getrandom), as 32 hex digits. Throws
// std::runtime_error when there is none.
std::string newRunNonce();

// Seals the records of one run.
class ResultsChain {
 public:
  // `last`: the digest of the record the file ends with ("" for a new file); `nonce`: this run's.
  explicit ResultsChain(std::string last = "", std::string nonce = newRunNonce());
  // The record (one JSON object, "{...}", no newline) with this run's "run" (on the first
  // record) and its "chain" digest added before the closing brace.
  std::string seal(const std::string& record);
  const std::string& last() const { return last_; }
  const std::string& nonce() const { return nonce_; }

 private:
  std::string last_, nonce_;
  bool started_ = false;
};

// A results file read back and checked.
struct VerifiedResults {
  std::vector<std::string> records;  // every verified record, as written (its "run" and "chain" still in it)
  std::vector<size_t> lines;         // the 1-based line of each record
  std::string last;                  // the last verified record's digest ("" when none)
  uint64_t keptBytes = 0;            // the bytes of the whole verified lines: the file is cut to this many
  std::string cut;                   // the last line was cut short and is dropped: "LINE: why" ("" when not)
  std::string tampered;              // the file was changed after kcontract wrote it: "LINE: why" ("" when not)
};

// Checks `text` (a whole results file) record by record. A line that fails its check in the
// middle of the file, a blank line, or a file whose first record starts no run is `tampered`
// (nothing after it is trusted, and `records` stops before it). The last line alone may be
// cut short by a kill: when it has no newline at its end, or is not a whole sealed record,
// it is `cut` instead; a last line that is whole but whose digest is wrong was edited, and
// is `tampered`.
VerifiedResults verifyResults(std::string_view text);

}  // namespace kc::report
