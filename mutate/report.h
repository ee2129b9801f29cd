#pragma once
// The mutation report in its three formats: text (a line per mutant, the score lines, the
// per-family table, the survivors with their diffs), JSON (one object) and HTML (one page).
#include <ostream>
#include <string>

#include "mutate/pipeline.h"

namespace kc::mutate {

bool isReportFormat(const std::string& name);  // text, json, html

// One line for a finished mutant (text's progress).
std::string mutantLine(const MutantResult& m);
// A survivor's suggestion (the suggest stage): the change and what it showed, or why none.
std::string suggestionLine(const Suggestion& s);

// The score lines: "mutate: ..." (text), also the tail of the text report.
void writeScores(std::ostream& out, const MutationReport& r);

void writeText(std::ostream& out, const MutationReport& r, bool withMutantLines);
void writeJson(std::ostream& out, const MutationReport& r);
void writeHtml(std::ostream& out, const MutationReport& r);

// Killed / scored as "29 of 31 (93.5%)"; "0 of 0" when nothing was scored.
std::string fraction(size_t part, size_t whole);

}  // namespace kc::mutate
