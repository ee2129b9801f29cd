#pragma once
// The values numeric flags accept, as CLI11 validators that run on the text before it is
// converted: a value outside them (NaN, inf, a sign, a fraction where an integer is meant,
// zero where it means nothing, out of range) is a usage error, exit 2, with a message that
// names the flag and the value (docs/checking.md, "Input rules").
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class Validator;
}

namespace kc::driver {

inline constexpr double kMaxSeconds = 1e6;               // --timeout: about 11.5 days
inline constexpr uint64_t kMaxThreads = 4096;            // --threads
inline constexpr uint64_t kMaxStreamCells = 1ull << 40;  // --stream-cells, KC_STREAM_CELLS
inline constexpr uint64_t kMaxCaseNumber = 1u << 30;     // --sanitize-case (cases count from 1)
inline constexpr uint64_t kMaxShards = 1u << 20;         // --shard I/N: N

// Seconds: a finite decimal number, 0 < S <= kMaxSeconds ("10", "0.5", "2e2").
CLI::Validator secondsValue();
// An integer written in decimal digits, from `lo` to `hi` (--seed 0..2^64-1, --threads 1..).
CLI::Validator integerValue(uint64_t lo, uint64_t hi);

// The same tests, for text that does not come through CLI11: "" when `text` is valid, else
// why not ("'nan' is not a number of seconds (0 < S <= 1000000)"). `out` is set when valid.
std::string checkSeconds(const std::string& text, double& out);
std::string checkInteger(const std::string& text, uint64_t lo, uint64_t hi, uint64_t& out);

// --shard "I/N" (check, calibrate): 0 <= I < N <= kMaxShards. False when it does not parse.
bool parseShard(const std::string& s, size_t& index, size_t& count);
// --dims "R=1..64,H=32": each dim's range (N is N..N). "" when it parses, else what is wrong
// (check and mutate).
std::string parseDims(const std::string& text, std::map<std::string, std::pair<int64_t, int64_t>>& out);
// --layouts "contiguous,padded": layout kinds. "" when they are all known, else what is wrong.
std::string parseLayouts(const std::string& text, std::vector<std::string>& out);

// --max-memory "4G", "512M", "1000000": bytes (1 byte to 1 PiB). False when it does not parse.
bool parseBytes(const std::string& s, uint64_t& out);

}  // namespace kc::driver
