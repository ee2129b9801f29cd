// kcontract fmt [--check] [--stdout] FILE...: rewrite files in canonical form.
#include <CLI/CLI.hpp>
#include <memory>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "cli/cli.h"
#include "cli/output.h"
#include "compiler/fmt/formatter.h"
#include "compiler/pipeline.h"

namespace kc::driver {

namespace {

struct FmtOptions {
  std::vector<std::string> files;
  bool check = false;
  bool toStdout = false;
};

int runFmt(const FmtOptions& cmd, const GlobalOptions& opts) {
  Compilation c;
  c.diags.setWarningsAsErrors(opts.warningsAsErrors);
  for (const auto& path : cmd.files) {
    if (path == "-") {
      std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
      compileText(c, "<stdin>", text, Stage::Parse);
    } else {
      compile(c, {path}, Stage::Parse);
    }
  }
  printDiagnostics(c.diags, opts);

  int rc = kExitOk;
  for (size_t i = 0; i < cmd.files.size(); ++i) {
    if (!c.files[i]) {
      rc = kExitInput;
      continue;
    }
    const SourceFile& source = c.sources.file(c.fileIds[i]);
    std::string formatted = fmt::format(*c.files[i], source);
    const std::string& path = cmd.files[i];
    if (cmd.check) {
      if (formatted != source.text()) {
        std::cout << "would reformat " << path << "\n";
        if (rc == kExitOk) rc = kExitFailed;
      }
    } else if (cmd.toStdout || path == "-") {
      std::cout << formatted;
    } else if (formatted != source.text() && !replaceFile(path, formatted)) {
      std::cerr << "kcontract: error: cannot write '" << path << "'\n";
      rc = kExitInput;
    }
  }
  return rc;
}

}  // namespace

void addFmtCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto cmd = std::make_shared<FmtOptions>();
  CLI::App* sub = app.add_subcommand("fmt", "Rewrite .kcontract files in canonical form (comments kept)");
  sub->add_option("files", cmd->files, "The .kcontract files; '-' reads standard input and writes standard output")
      ->required();
  sub->add_flag("--check", cmd->check, "Change nothing; name each file that is not in canonical form and exit 1");
  sub->add_flag("--stdout", cmd->toStdout, "Print the formatted text instead of rewriting the files");
  commands.emplace_back(sub, [cmd](const GlobalOptions& g) { return runFmt(*cmd, g); });
}

}  // namespace kc::driver
