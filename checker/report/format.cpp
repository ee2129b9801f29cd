#include "checker/report/format.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace kc::report {

namespace {

std::vector<ReportFormat>& registry() {
  static std::vector<ReportFormat> formats = {
#define KC_REPORT_FORMAT(NAME) NAME##Format(),
#include "checker/report/formats.def"
#undef KC_REPORT_FORMAT
  };
  return formats;
}

// How many formats formats.def has: those stay.
constexpr size_t kBuiltInFormats = 0
#define KC_REPORT_FORMAT(NAME) +1
#include "checker/report/formats.def"
#undef KC_REPORT_FORMAT
    ;

std::string cannotWrite(const std::string& out) { return "cannot write '" + out + "'"; }

}  // namespace

const std::vector<ReportFormat>& reportFormats() { return registry(); }

const ReportFormat* findReportFormat(std::string_view name) {
  for (const ReportFormat& f : registry())
    if (f.name == name) return &f;
  return nullptr;
}

void registerReportFormat(ReportFormat format) {
  if (format.name.empty()) throw std::invalid_argument("a report format needs a name");
  if (findReportFormat(format.name)) throw std::invalid_argument("report format '" + format.name + "' is registered already");
  registry().push_back(std::move(format));
}

bool unregisterReportFormat(std::string_view name) {
  auto& all = registry();
  auto first = all.begin() + static_cast<long>(kBuiltInFormats);
  auto it = std::find_if(first, all.end(), [&](const ReportFormat& f) { return f.name == name; });
  if (it == all.end()) return false;
  all.erase(it);
  return true;
}

std::string reportFormatList(bool markDefault) {
  const auto& all = registry();
  std::string s;
  for (size_t i = 0; i < all.size(); ++i) {
    s += i == 0 ? "" : i + 1 == all.size() ? " or " : ", ";
    s += all[i].name;
    if (i == 0 && markDefault) s += " (default)";
  }
  return s;
}

const ReportFormat& defaultReportFormat() { return registry().front(); }

const ReportFormat& resumeFormat() {
  for (const ReportFormat& f : registry())
    if (f.parseRecord) return f;
  throw std::logic_error("no report format can be resumed");
}

ReportWriter::ReportWriter(const ReportFormat& format, std::string out, std::ostream& console)
    : format_(format), out_(std::move(out)), console_(console) {}

ReportWriter::ReportWriter(const ReportFormat& format, std::string out) : ReportWriter(format, std::move(out), std::cout) {}

ReportWriter::~ReportWriter() = default;

bool ReportWriter::open(std::string& error) {
  if (!format_.caseRecord) return true;
  if (out_.empty()) {
    records_ = &console_;
    return true;
  }
  file_ = std::make_unique<std::ofstream>(out_, std::ios::app);
  if (!*file_) {
    error = cannotWrite(out_);
    return false;
  }
  records_ = file_.get();
  return true;
}

bool ReportWriter::textToStdout() const { return !format_.machine || !out_.empty(); }

void ReportWriter::add(const CaseResult& r) {
  if (records_) *records_ << format_.caseRecord(r) << "\n" << std::flush;  // one whole record per case, at once
}

bool ReportWriter::finish(const std::vector<CaseResult>& results, const FormatContext& context, std::string& error) {
  if (!format_.document) return true;
  std::string doc = format_.document(results, context);
  if (out_.empty()) {
    console_ << doc;
    return true;
  }
  std::string tmp = out_ + ".tmp";
  std::ofstream f(tmp);
  f << doc;
  f.close();
  if (!f || std::rename(tmp.c_str(), out_.c_str()) != 0) {
    error = cannotWrite(out_);
    return false;
  }
  return true;
}

}  // namespace kc::report
