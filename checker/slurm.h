#pragma once
// `kcontract check SUITE --slurm`: a suite sharded over a Slurm job array, its shards merged
// by a job that depends on the array (docs/scale.md). What is written:
//   DIR/array.sbatch   one shard per array task: `check ... --shard ID/N --format jsonl`
//                      into DIR/shard-ID.jsonl (--resume when a requeued task finds its file)
//   DIR/merge.sbatch   `kcontract merge` of the shards into DIR/merged.jsonl, and the
//                      report the command asked for (--format, --out), once every task ended
//   DIR/submit.sh      submits both, the merge with --dependency=afterany on the array;
//                      run again, it resumes a partial array (finished cases are kept)
//   DIR/logs/          each task's and the merge's output
#include <optional>
#include <string>
#include <vector>

namespace kc::check {

struct SlurmRequest {
  std::string kcontract;                  // the executable the tasks run (selfPath)
  std::vector<std::string> checkArgs;     // the command line after the program, with what --slurm adds removed (slurmCheckArgs)
  std::string workdir;                    // absolute: where relative paths in checkArgs mean what they meant here
  std::string folder;                     // absolute: the shared output folder (DIR)
  size_t tasks = 4;                       // array tasks = shards
  std::string name = "kcontract";         // the jobs' names (the merge job's gets "-merge")
  std::vector<std::string> options;       // #SBATCH lines of both jobs (--partition=..., --time=...)
  std::vector<std::string> arrayOptions;  // #SBATCH lines of the array alone (--gres=gpu:1)
  std::string reportFormat;               // besides merged.jsonl, the merge job writes this report ("" none)
  std::string reportOut;                  // absolute path of that report
};

struct SlurmScripts {
  std::string array, merge, submit;
};

// The three scripts of a request (their text; nothing is written).
SlurmScripts slurmScripts(const SlurmRequest& request);

// The command line of a check without what --slurm decides for each task: the --slurm*
// options, --out, --format, --resume, --replace and --shard, with their values (NAME VALUE
// or NAME=VALUE).
std::vector<std::string> slurmCheckArgs(const std::vector<std::string>& args);

// Writes the scripts into request.folder (created, with logs/); refuses a folder that holds
// shard results already. Returns "" or why not.
std::string writeSlurmScripts(const SlurmRequest& request);

// Runs DIR/submit.sh: its output (the jobs' ids) in `output`. Returns "" or why not.
std::string submitSlurm(const SlurmRequest& request, std::string& output);

// Inside a Slurm array task (SLURM_ARRAY_TASK_ID, _MIN and _COUNT set): the shard the task
// is, I/N with I = ID - MIN. `error` when the array's ids are not consecutive from MIN (a
// stepped or listed --array), so that they cannot be shard numbers.
struct ArrayTask {
  size_t index = 0, count = 1;
  std::string error;
};
std::optional<ArrayTask> arrayTaskFromEnvironment();

// A word for a POSIX shell: as it is when it is plain, else in single quotes.
std::string shellQuote(const std::string& word);

}  // namespace kc::check
