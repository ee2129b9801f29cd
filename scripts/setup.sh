#!/usr/bin/env bash
# Installs every Debian package kcontract needs, and the npm packages of the editor grammar's
# test (editors/vscode). Idempotent: installs only what is missing.
# Uses sudo when not root. Safe to run on every build.
set -euo pipefail

PACKAGES=(
  # toolchain
  g++ cmake ninja-build pkg-config make
  # parser: ANTLR tool (4.7.2) + C++ runtime (4.9) and its uuid dependency
  antlr4 libantlr4-runtime-dev uuid-dev
  # solver, numerics, config, CLI, JSON, tests
  libcvc5-dev libmpfr-dev libgmp-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev catch2
  # SHA-256 of the results files' integrity chain (OpenSSL's libcrypto)
  libssl-dev
  # BLAS for the f64 oracle's contractions (cblas_dgemm)
  libopenblas-dev
  # fuzzing (libFuzzer) with clang
  clang libclang-rt-14-dev
  # kcontract mutate: mutation operators over kernel sources, at the AST level (libclang's C API)
  libclang-14-dev
  # OpenCL backend: headers, the ICD loader, and PoCL (a CPU OpenCL device) to run it on
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  # exec backend tests: NumPy adaptors, and the PyTorch adaptor on the CPU (~1 GB installed)
  python3-numpy python3-torch
  # the Python package's pytest plugin (python/kcontract), tested on the CPU
  python3-pytest
  # the worker cell (docs/security.md): seccomp filters; SHA-256 of cached kernels (libcrypto)
  libseccomp-dev libssl-dev
  # the HTML report's test renders the page in headless Chromium (tests/e2e/html/check_page.sh)
  chromium
  # check --slurm's test: a one-node Slurm cluster (tests/e2e/slurm/cluster.sh)
  slurmctld slurmd slurm-client munge
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The editor grammar's test (tests/e2e/editor_grammar.sh) runs on node, with the two npm
# packages of editors/vscode/package-lock.json. A node from elsewhere (NodeSource) is kept.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup: installing nodejs npm"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm
fi
VSCODE_DIR="$(cd "$(dirname "$0")/.." && pwd)/editors/vscode"
if [ -d "$VSCODE_DIR/node_modules/vscode-textmate" ] && [ -d "$VSCODE_DIR/node_modules/vscode-oniguruma" ]; then
  echo "setup: editors/vscode/node_modules present"
else
  echo "setup: installing editors/vscode/node_modules (npm ci)"
  (cd "$VSCODE_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
