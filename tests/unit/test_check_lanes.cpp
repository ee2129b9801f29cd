// check --devices: a job spread over two lanes reports what one lane reports, in the same
// order, apart from timings, with the same diagnosis (checker/check.h RunOptions::devices).
// On the host backend the lanes' CUDA_VISIBLE_DEVICES means nothing; the spreading is the same.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "checker/check.h"
#include "checker/jobs.h"
#include "checker/report/diagnosis.h"
#include "checker/report/jsonl.h"

namespace {

struct Run {
  std::vector<std::string> results;  // each case's JSON, its timings zeroed
  std::string diagnosis;
};

Run runOn(const std::vector<std::string>& devices, const std::string& impl) {
  kc::Compilation c;
  kc::check::JobOptions o;
  o.targets = {std::string(KC_SOURCE_DIR) + "/examples/relu/relu.kcontract"};
  o.impl = std::string(KC_SOURCE_DIR) + "/examples/relu/" + impl;
  std::vector<kc::check::Job> jobs;
  kc::check::JobError error;
  REQUIRE(kc::check::buildJobs(c, o, false, jobs, error));
  REQUIRE(jobs.size() == 1);
  kc::check::RunOptions opts;
  opts.devices = devices;
  opts.threads = 1;
  Run run;
  kc::check::JobStats st = kc::check::runJob(jobs[0], opts, [&](const kc::report::CaseResult& r) {
    kc::report::CaseResult copy = r;
    copy.seconds = 0;
    run.results.push_back(kc::report::caseJson(copy));
  });
  run.diagnosis = kc::report::diagnosisText(st.diagnosis);
  return run;
}

}  // namespace

TEST_CASE("check lanes: two lanes give one lane's results, in plan order, and its diagnosis") {
  for (const char* impl : {"relu.c", "relu_nan.c"}) {
    INFO(impl);
    Run one = runOn({}, impl);
    Run two = runOn({"0", "1"}, impl);
    REQUIRE(one.results.size() > 2);
    CHECK(two.results == one.results);
    CHECK(two.diagnosis == one.diagnosis);
  }
}
