// check --slurm (checker/slurm.h): the task's command line, quoting, the scripts, and the
// shard of an array task found from the environment.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "checker/slurm.h"

using namespace kc::check;

TEST_CASE("slurm: what --slurm decides per task leaves the command line, NAME VALUE and NAME=VALUE alike") {
  std::vector<std::string> args = {"check", "suite.yaml", "--slurm", "--slurm-tasks", "8", "--slurm-dir=out",
                                    "--format", "html", "--out=r.html", "--replace", "--seed", "7",
                                    "--slurm-option=--partition=gpu", "--slurm-array-option", "--gres=gpu:1",
                                    "--devices", "all", "--color", "never"};
  CHECK(slurmCheckArgs(args) ==
        std::vector<std::string>{"check", "suite.yaml", "--seed", "7", "--devices", "all", "--color", "never"});
}

TEST_CASE("slurm: words are quoted for the shell only when they need it") {
  CHECK(shellQuote("suite.yaml") == "suite.yaml");
  CHECK(shellQuote("--dims=R=1..64,H=32") == "--dims=R=1..64,H=32");
  CHECK(shellQuote("my suite.yaml") == "'my suite.yaml'");
  CHECK(shellQuote("it's") == "'it'\\''s'");
  CHECK(shellQuote("$HOME") == "'$HOME'");
  CHECK(shellQuote("") == "''");
}

TEST_CASE("slurm: the array runs one shard per task into its own file; the merge waits for every shard") {
  SlurmRequest r;
  r.kcontract = "/opt/kc/kcontract";
  r.checkArgs = {"check", "my suite.yaml", "--seed", "7"};
  r.workdir = "/home/a";
  r.folder = "/shared/run";
  r.tasks = 3;
  r.options = {"--partition=gpu"};
  r.arrayOptions = {"--gres=gpu:1"};
  r.reportFormat = "html";
  r.reportOut = "/shared/report.html";
  SlurmScripts s = slurmScripts(r);
  CHECK(s.array.find("#SBATCH --array=0-2\n") != std::string::npos);
  CHECK(s.array.find("#SBATCH --partition=gpu\n#SBATCH --gres=gpu:1\n") != std::string::npos);
  CHECK(s.array.find("exec /opt/kc/kcontract check 'my suite.yaml' --seed 7 --shard \"$task/3\" --format jsonl \"${where[@]}\"") !=
        std::string::npos);
  CHECK(s.array.find("if [ -s \"$out\" ]; then where=(--resume \"$out\")") != std::string::npos);
  CHECK(s.merge.find("--gres") == std::string::npos);
  CHECK(s.merge.find("#SBATCH --partition=gpu\n") != std::string::npos);
  CHECK(s.merge.find("merge \"$dir/merged.jsonl\" --format html --out /shared/report.html --replace") != std::string::npos);
  CHECK(s.submit.find("--dependency=afterany:$array") != std::string::npos);
}

TEST_CASE("slurm: an array task's shard is its id less the array's first") {
  setenv("SLURM_ARRAY_TASK_ID", "12", 1);
  setenv("SLURM_ARRAY_TASK_MIN", "10", 1);
  setenv("SLURM_ARRAY_TASK_MAX", "13", 1);
  setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
  auto t = arrayTaskFromEnvironment();
  REQUIRE(t);
  CHECK(t->error.empty());
  CHECK(t->index == 2);
  CHECK(t->count == 4);
  setenv("SLURM_ARRAY_TASK_MAX", "16", 1);  // --array=10-16:2: 4 tasks, ids not consecutive
  t = arrayTaskFromEnvironment();
  REQUIRE(t);
  CHECK(t->error.find("is not one of consecutive ids") != std::string::npos);
  for (const char* v : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT"})
    unsetenv(v);
  CHECK_FALSE(arrayTaskFromEnvironment());
}
