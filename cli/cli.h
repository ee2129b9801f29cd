#pragma once
// The kcontract command line. main() only calls run(); every subcommand has its own file.
#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace kc::driver {

// The tool's version, for --version and machine reports: the project version of
// CMakeLists.txt (cli/CMakeLists.txt defines KC_VERSION).
inline constexpr const char* kToolVersion = KC_VERSION;

// Exit codes (docs/design.md §6): 0 all good, 1 a check failed (a contract violated, a file
// not formatted), 2 usage or input error, 3 internal error.
enum ExitCode { kExitOk = 0, kExitFailed = 1, kExitInput = 2, kExitInternal = 3 };

struct GlobalOptions {
  std::string color = "auto";  // auto | always | never
  bool warningsAsErrors = false;
  std::vector<std::string> args;  // the command line after the program's name, as given (check --slurm)
};

int run(int argc, char** argv);

// Each subcommand registers itself and returns the action to run when it is chosen. Its
// options are a struct the command's add function creates, binds to the flags, and hands to
// the action (a shared_ptr the action captures): no command keeps its options in a global.
using Action = std::function<int(const GlobalOptions&)>;
void addParseCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addFmtCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addIrCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addPlanCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addObligationsCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addProveCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addCheckCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addReplayCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addCalibrateCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addMutateCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addCatalogCommands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addIncidentCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addLspCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addMergeCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);
void addOracleCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands);

}  // namespace kc::driver
