#!/usr/bin/env python3
"""The include layers (docs: README "Layout"), bottom to top:

    include  <-  {stdlib, sandbox}  <-  {contracts, backends}  <-  compiler  <-  {prover, checker}  <-  {mutate, lsp}  <-  {cli, bench}

A folder may include itself and anything lower; folders on one level do not include each
other. Reads every `#include "..."` of the tree's C, C++ and CUDA files (not build folders,
not tests/) and fails, naming FILE:LINE, when a file includes one of a higher (or a sibling)
layer, when a file outside prover/smt/ includes a cvc5 header, or a file other than
mutate/clang_ast.cpp a libclang (clang-c) header. Usage: check_layers.py [ROOT] (default: the repository this script is in).
"""
import os
import re
import sys

LAYERS = [["include"], ["stdlib", "sandbox"], ["contracts", "backends"], ["compiler"], ["prover", "checker"], ["mutate", "lsp"], ["cli", "bench"]]
RANK = {folder: rank for rank, level in enumerate(LAYERS) for folder in level}
SOURCE = (".h", ".hpp", ".c", ".cc", ".cpp", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
CVC5 = re.compile(r'^\s*#\s*include\s+[<"](cvc5/[^>"]+)[>"]')
CVC5_HOME = os.path.join("prover", "smt") + os.sep
CLANG = re.compile(r'^\s*#\s*include\s+[<"](clang-c/[^>"]+)[>"]')
CLANG_HOME = os.path.join("mutate", "clang_ast.cpp")
SKIP_TOP = {"tests", ".git", "Testing"}


def is_build_dir(path):
    return os.path.exists(os.path.join(path, "CMakeCache.txt")) or os.path.basename(path).startswith("build")


def layer_of_include(root, including, target):
    """The top-level folder an include names: relative to the including file first, then the root."""
    local = os.path.normpath(os.path.join(os.path.dirname(including), target))
    if os.path.exists(local):
        rel = os.path.relpath(local, root)
    elif target.startswith("kcontract/"):
        rel = os.path.join("include", target)  # the ABI headers: -I include/
    else:
        rel = target
    return rel.split(os.sep)[0].split("/")[0]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    violations, files = [], 0
    for top in sorted(os.listdir(root)):
        top_path = os.path.join(root, top)
        if top in SKIP_TOP or top not in RANK or not os.path.isdir(top_path) or is_build_dir(top_path):
            continue
        for dirpath, dirnames, filenames in os.walk(top_path):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and not is_build_dir(os.path.join(dirpath, d)))
            for name in sorted(filenames):
                if not name.endswith(SOURCE):
                    continue
                path = os.path.join(dirpath, name)
                files += 1
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        cvc5 = CVC5.match(line)
                        if cvc5 and not os.path.relpath(path, root).startswith(CVC5_HOME):
                            violations.append(f"{os.path.relpath(path, root)}:{number}: includes <{cvc5.group(1)}>; "
                                              f"only prover/smt/ includes cvc5")
                        clang = CLANG.match(line)
                        if clang and os.path.relpath(path, root) != CLANG_HOME:
                            violations.append(f"{os.path.relpath(path, root)}:{number}: includes <{clang.group(1)}>; "
                                              f"only mutate/clang_ast.cpp includes libclang")
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        to = layer_of_include(root, path, m.group(1))
                        if to not in RANK or to == top or RANK[to] < RANK[top]:
                            continue
                        how = "a sibling layer" if RANK[to] == RANK[top] else "a higher layer"
                        violations.append(f"{os.path.relpath(path, root)}:{number}: {top}/ includes \"{m.group(1)}\", "
                                          f"{how} ({to}/)")
    for v in violations:
        print(v)
    order = "  <-  ".join("{" + ", ".join(level) + "}" if len(level) > 1 else level[0] for level in LAYERS)
    if violations:
        print(f"layering: {len(violations)} include(s) against the layers ({order})")
        return 1
    print(f"layering: {files} files, every include within the layers ({order})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
