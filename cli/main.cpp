// kcontract: the command-line entry point. Everything lives in the libraries.
#include "cli/cli.h"
#include "checker/run/marks.h"

int main(int argc, char** argv) {
  kc::run::rememberArguments(argc, argv);  // a worker writes its title over them (checker/run/marks.h)
  return kc::driver::run(argc, argv);
}
