# The C++ API through its CMake package (docs/install.md, "C++"): `cmake --install` into a
# fresh prefix; then, with the source and build trees hidden (an empty tmpfs over each, in a
# private mount namespace, as data/installed_checks.sh does), examples/embed, a separate
# project copied out beforehand, finds it with find_package(kcontract), builds against
# kcontract::kcontract and runs on the package's own binary (no KC_BINARY, no PATH): it
# compiles a contract, plans it and checks kernels. A right relu PASSes, a NaN-swallowing one
# FAILs with its cause and worst cell, a missing entry point is kcontract::Error (exit 2),
# and a contract with an error comes back as diagnostics.
build="$(cd "$(dirname "$KC")" && pwd)"
root="$(cd ../.. && pwd)"
unset KC_BINARY
cmake --install "$build" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; exit 1; }
echo "== the package: $(cd "$WORK/prefix" && ls lib/cmake/kcontract/kcontractConfig.cmake include/kcontract/kcontract.h lib/libkcontract.a | tr '\n' ' ')"
cp -r "$root/examples/embed" "$WORK/embed-src"
cp "$root/examples/relu/relu.kcontract" "$root/examples/relu/relu_nan.c" "$WORK/"
printf 'kcontract 1\nkernel k(x: f32[N]) -> (y: f32[N])\ncontract a.b@1 for k {\n  oracle { y*[i] = x[i] + }\n}\n' > "$WORK/bad.kcontract"
cat > "$WORK/run.sh" <<'SH'
root="$1"; build="$2"
cd / || exit 1
for tree in "$build" "$root"; do mount -t tmpfs -o size=64k,mode=755 kc-hidden "$tree" || exit 1; done
echo "hidden: the source tree shows $(ls -A "$root" | wc -l) entries"
cd "$WORK" || exit 1
export PATH=/usr/bin:/bin
cmake -S embed-src -B embed -DCMAKE_PREFIX_PATH="$WORK/prefix" >configure.log 2>&1 &&
  cmake --build embed >build.log 2>&1 || { cat configure.log build.log; exit 1; }
echo "== built examples/embed against it"
embed/embed relu.kcontract relu "$WORK/prefix/share/kcontract/stdlib/ops/kernels/elementwise.c:kc_relu" R=1..2
echo "exit: $?"
embed/embed relu.kcontract relu "$WORK/prefix/share/kcontract/contracts/calibration/ops/relu_nan.c" R=1..2
echo "exit: $?"
embed/embed relu.kcontract relu relu_nan.c:kc_no_such_entry 2>&1 | sed -E 's/-[0-9a-f]{16}\.so/-HASH.so/'
echo "exit: ${PIPESTATUS[0]}"
embed/embed bad.kcontract relu relu_nan.c
echo "exit: $?"
SH
unshare --mount --propagation private bash "$WORK/run.sh" "$root" "$build"
