#include "checker/report/format.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "checker/report/chain.h"

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

// Whether `out` names a regular file that exists (through a symbolic link too).
bool existingFile(const std::string& out) {
  struct stat st {};
  return stat(out.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Writes all of `line` (one write(), again only for what a short write left).
bool writeAll(int fd, const std::string& line) {
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

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

std::string existsError(const std::string& out, bool resumable) {
  return "'" + out + "' exists already; add --replace to overwrite it" +
         (resumable ? ", or --resume " + out + " to keep its results and append to it" : "");
}

ReportWriter::ReportWriter(const ReportFormat& format, std::string out, std::ostream& console, OutMode mode)
    : format_(format), out_(std::move(out)), console_(console), mode_(mode) {
  if (format_.chained) chain_ = std::make_unique<ResultsChain>();
}

ReportWriter::ReportWriter(const ReportFormat& format, std::string out, OutMode mode)
    : ReportWriter(format, std::move(out), std::cout, mode) {}

ReportWriter::~ReportWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void ReportWriter::continueChain(std::string last) {
  if (chain_) chain_ = std::make_unique<ResultsChain>(std::move(last));
}

bool ReportWriter::open(std::string& error) {
  if (!out_.empty() && mode_ == OutMode::Create && existingFile(out_)) {
    error = existsError(out_, static_cast<bool>(format_.parseRecord));
    return false;
  }
  if (!format_.machine && !out_.empty()) {  // the text report itself goes to the file
    textFile_ = std::make_unique<std::ofstream>(out_, mode_ == OutMode::Append ? std::ios::app : std::ios::trunc);
    if (!*textFile_) {
      textFile_.reset();
      error = cannotWrite(out_);
      return false;
    }
  }
  if (!format_.caseRecord) return true;
  if (out_.empty()) {
    records_ = &console_;
    return true;
  }
  // O_EXCL: a file that appeared since the check above is not written over either.
  int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
  if (mode_ == OutMode::Replace) flags |= O_TRUNC;
  if (mode_ == OutMode::Create && !existingFile(out_)) {
    struct stat st {};
    if (stat(out_.c_str(), &st) != 0) flags |= O_EXCL;  // nothing there (a device or pipe is opened as it is)
  }
  fd_ = ::open(out_.c_str(), flags, 0644);
  if (fd_ < 0) {
    error = errno == EEXIST ? existsError(out_, static_cast<bool>(format_.parseRecord)) : cannotWrite(out_);
    return false;
  }
  return true;
}

bool ReportWriter::wantsText() const { return !format_.machine || !out_.empty(); }

std::ostream& ReportWriter::text() { return textFile_ ? static_cast<std::ostream&>(*textFile_) : console_; }

void ReportWriter::add(const CaseResult& r) {
  if (!format_.caseRecord || (!records_ && fd_ < 0)) return;
  std::string line = format_.caseRecord(r);
  if (chain_) line = chain_->seal(line);
  line += "\n";
  if (fd_ >= 0) {
    // One whole record per case, at once: a kill leaves at most this line cut short, at the end.
    if (!writeAll(fd_, line)) std::cerr << "kcontract: " << cannotWrite(out_) << ": " << std::strerror(errno) << "\n";
  } else {
    *records_ << line << std::flush;
  }
}

bool ReportWriter::finish(const std::vector<CaseResult>& results, const FormatContext& context, std::string& error) {
  if (textFile_) {
    textFile_->flush();
    if (!*textFile_) {
      error = cannotWrite(out_);
      return false;
    }
  }
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
