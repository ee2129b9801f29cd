// kcontract: the command-line entry point. Everything lives in the libraries.
#include "cli/cli.h"

int main(int argc, char** argv) { return kc::driver::run(argc, argv); }
