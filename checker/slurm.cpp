#include "checker/slurm.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace kc::check {

namespace fs = std::filesystem;

namespace {

// The options --slurm decides per task, and whether each takes a value.
const std::set<std::string> kDropWithValue = {"--out",        "--format",        "--resume",           "--shard",
                                              "--slurm-tasks", "--slurm-dir",     "--slurm-option",     "--slurm-array-option",
                                              "--slurm-name"};
const std::set<std::string> kDropAlone = {"--slurm", "--replace"};

std::string sbatchLines(const std::vector<std::string>& options) {
  std::string s;
  for (const std::string& o : options) s += "#SBATCH " + o + "\n";
  return s;
}

std::string header(const std::string& what) {
  return "#!/bin/bash\n# Written by `kcontract check --slurm` (docs/scale.md): " + what + "\n";
}

bool writeFile(const fs::path& path, const std::string& text, bool executable) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return false;
  std::error_code ec;
  if (executable) fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add, ec);
  return !ec;
}

}  // namespace

std::string shellQuote(const std::string& w) {
  bool plain = !w.empty() && w.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=./,:@%") == std::string::npos;
  if (plain) return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<std::string> slurmCheckArgs(const std::vector<std::string>& args) {
  std::vector<std::string> kept;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string name = a.substr(0, a.find('='));
    if (kDropAlone.count(a)) continue;
    if (kDropWithValue.count(name)) {
      if (name == a) ++i;  // NAME VALUE: the value goes too
      continue;
    }
    kept.push_back(a);
  }
  return kept;
}

SlurmScripts slurmScripts(const SlurmRequest& r) {
  const std::string n = std::to_string(r.tasks);
  const std::string dir = shellQuote(r.folder);
  SlurmScripts s;
  std::string check = shellQuote(r.kcontract);
  for (const std::string& a : r.checkArgs) check += " " + shellQuote(a);
  s.array = header("one shard of the check per array task.") +
            "#SBATCH --job-name=" + shellQuote(r.name) + "\n" +
            "#SBATCH --array=0-" + std::to_string(r.tasks - 1) + "\n" +
            "#SBATCH --chdir=" + shellQuote(r.workdir) + "\n" +
            "#SBATCH --output=" + shellQuote(r.folder + "/logs/shard-%a.out") + "\n" +
            sbatchLines(r.options) + sbatchLines(r.arrayOptions) +
            "set -u\n"
            "task=\"${SLURM_ARRAY_TASK_ID:?array.sbatch runs as a task of a Slurm job array}\"\n"
            "out=" + dir + "/shard-$task.jsonl\n"
            "# A task run again (requeued, or the array submitted again) keeps what it finished.\n"
            "if [ -s \"$out\" ]; then where=(--resume \"$out\"); else where=(--out \"$out\"); fi\n"
            "exec " + check + " --shard \"$task/" + n + "\" --format jsonl \"${where[@]}\"\n";
  std::string report;
  if (!r.reportFormat.empty())
    report = shellQuote(r.kcontract) + " merge \"$dir/merged.jsonl\" --format " + shellQuote(r.reportFormat) + " --out " +
             shellQuote(r.reportOut) + " --replace > /dev/null || rc=2\n";
  s.merge = header("the shards of the array merged, once every task ended.") +
            "#SBATCH --job-name=" + shellQuote(r.name + "-merge") + "\n" +
            "#SBATCH --chdir=" + shellQuote(r.workdir) + "\n" +
            "#SBATCH --output=" + shellQuote(r.folder + "/logs/merge.out") + "\n" +
            sbatchLines(r.options) +
            "set -u\n"
            "dir=" + dir + "\n"
            "files=()\n"
            "missing=0\n"
            "for ((i = 0; i < " + n + "; i++)); do\n"
            "  if [ -s \"$dir/shard-$i.jsonl\" ]; then files+=(\"$dir/shard-$i.jsonl\")\n"
            "  else echo \"merge: shard $i/" + n + " wrote no results (its log: $dir/logs/shard-$i.out)\" >&2; missing=1; fi\n"
            "done\n"
            "[ ${#files[@]} -gt 0 ] || exit 2\n" +
            shellQuote(r.kcontract) + " merge \"${files[@]}\" --out \"$dir/merged.jsonl\" --replace\n"
            "rc=$?\n" + report +
            "# A shard missing: the merge is partial, said by the exit status; submit.sh again resumes.\n"
            "[ $missing = 0 ] || rc=2\n"
            "exit $rc\n";
  s.submit = header("submits the array, then the merge once the array ended.\n# Run it again to resume a partial array: each task keeps the cases its file holds.") +
             "set -eu\n"
             "dir=" + dir + "\n"
             "array=$(sbatch --parsable \"$dir/array.sbatch\")\n"
             "array=${array%%;*}\n"
             "merge=$(sbatch --parsable --dependency=afterany:$array \"$dir/merge.sbatch\")\n"
             "merge=${merge%%;*}\n"
             "echo \"array job $array: " + n + " tasks, one shard each, into $dir/shard-*.jsonl\"\n"
             "echo \"merge job $merge: after the array, into $dir/merged.jsonl\"\n";
  return s;
}

std::string writeSlurmScripts(const SlurmRequest& r) {
  std::error_code ec;
  fs::path dir(r.folder);
  if (fs::exists(dir / "merged.jsonl", ec) || fs::exists(dir / "shard-0.jsonl", ec))
    return "--slurm-dir " + r.folder + " holds the results of an earlier submission: run its submit.sh to resume it, "
           "or give another --slurm-dir";
  fs::create_directories(dir / "logs", ec);
  if (ec) return "cannot create " + (dir / "logs").string() + ": " + ec.message();
  SlurmScripts s = slurmScripts(r);
  const std::pair<const char*, const std::string*> files[] = {{"array.sbatch", &s.array}, {"merge.sbatch", &s.merge}, {"submit.sh", &s.submit}};
  for (const auto& [name, text] : files)
    if (!writeFile(dir / name, *text, true)) return "cannot write " + (dir / name).string();
  return "";
}

std::string submitSlurm(const SlurmRequest& r, std::string& output) {
  int pipeFds[2];
  if (pipe2(pipeFds, O_CLOEXEC) != 0) return std::string("cannot submit: pipe: ") + std::strerror(errno);
  std::string script = (fs::path(r.folder) / "submit.sh").string();
  pid_t pid = fork();
  if (pid < 0) return std::string("cannot submit: fork: ") + std::strerror(errno);
  if (pid == 0) {
    dup2(pipeFds[1], 1);
    dup2(pipeFds[1], 2);
    execlp("bash", "bash", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(pipeFds[1]);
  char buffer[4096];
  ssize_t got;
  while ((got = read(pipeFds[0], buffer, sizeof buffer)) > 0) output.append(buffer, static_cast<size_t>(got));
  close(pipeFds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  return script + " failed (" + (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status)) : "killed") + ")";
}

std::optional<ArrayTask> arrayTaskFromEnvironment() {
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
  const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
  const char* max = std::getenv("SLURM_ARRAY_TASK_MAX");
  if (!id || !*id || !count || !*count) return std::nullopt;
  ArrayTask t;
  char* end = nullptr;
  unsigned long long i = std::strtoull(id, &end, 10);
  bool ok = *end == '\0';
  unsigned long long lo = min && *min ? std::strtoull(min, &end, 10) : 0;
  ok = ok && (!min || !*min || *end == '\0');
  unsigned long long n = std::strtoull(count, &end, 10);
  ok = ok && *end == '\0' && n > 0 && i >= lo;
  // Ids MIN..MIN+N-1 are shard numbers; a stepped or listed array's are not.
  unsigned long long hi = max && *max ? std::strtoull(max, nullptr, 10) : lo + n - 1;
  if (!ok || hi - lo + 1 != n) {
    t.error = std::string("this Slurm array task (SLURM_ARRAY_TASK_ID=") + id + ", " + count +
              " tasks) is not one of consecutive ids, so it cannot say which shard it is: give --shard I/N";
    return t;
  }
  t.index = static_cast<size_t>(i - lo);
  t.count = static_cast<size_t>(n);
  return t;
}

}  // namespace kc::check
