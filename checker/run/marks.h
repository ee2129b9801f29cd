#pragma once
// The run's marks: everything a kernel could recognise a check by — the output poison, the
// canary bytes around every buffer, the name of the shared-memory mapping, the worker's
// temporary file and its process title — chosen per run from the seed (docs/security.md,
// "Nothing fixed to detect"). Deterministic: the same base seed, case seed and case number
// give the same key and so the same bytes; the reproducer records the key (`marks=`), and a
// replay uses it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stdlib/numerics/dtype.h"

namespace kc::run {

// The key of one run of a case (one seed of it).
uint64_t marksKey(uint64_t baseSeed, uint64_t caseSeed, uint64_t caseNumber);
// 16 hex digits, as the reproducer's marks= writes it; parseMarks reads it back.
std::string formatMarks(uint64_t key);
std::optional<uint64_t> parseMarks(const std::string& text);

// The poison of a dtype for the key (one element, little endian). Floats: a signalling NaN
// (quiet bit clear), sign and payload drawn from the key, never the old fixed pattern; no
// arithmetic produces a signalling NaN (IEEE 754 quiets every NaN it computes with). f8e4m3
// has one NaN of each sign (S.1111.111), f8e5m2 one signalling NaN of each sign: only the sign
// varies there. Integers and bool: one byte repeated, 0x81..0xFE (not 0xA5), drawn from the key.
std::vector<uint8_t> poisonPattern(numerics::DType t, uint64_t key);
// The guard bytes around every buffer: the leading kCanaryBytes, then the trailing
// kCanaryBytes (case_setup.h), drawn from the key.
std::vector<uint8_t> canaryPattern(uint64_t key);
// A name of 6 to 10 lowercase letters and digits, drawn from the key for `purpose` (the
// shared-memory mapping, the worker's temporary file, the process title).
enum class MarkName { Mapping = 1, TempFile = 2, Title = 3 };
std::string markName(uint64_t key, MarkName purpose);

// Before any worker starts: where the process's arguments are (main's argv), so that a
// worker can write its title over them (/proc/PID/cmdline). Optional: without it only the
// kernel's name of the thread (/proc/PID/comm) changes.
void rememberArguments(int argc, char** argv);
// In a freshly forked worker: its comm (prctl PR_SET_NAME) and its cmdline become the
// key's title.
void disguiseProcess(uint64_t key);

}  // namespace kc::run
