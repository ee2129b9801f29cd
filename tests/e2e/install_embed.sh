# The C++ API through its CMake package (docs/install.md, "C++"): `cmake --install` into a
# fresh prefix, then examples/embed, a separate project, finds it with find_package(kcontract),
# builds against kcontract::kcontract and runs: the package's own binary (no KC_BINARY, no
# PATH) compiles a contract, plans it and checks kernels. A right relu PASSes, a NaN-swallowing
# one FAILs with its cause and worst cell, a missing entry point is kcontract::Error (exit 2),
# and a contract with an error comes back as diagnostics.
build="$(cd "$(dirname "$KC")" && pwd)"
root="$(cd ../.. && pwd)"
unset KC_BINARY
cmake --install "$build" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; exit 1; }
echo "== the package: $(cd "$WORK/prefix" && ls lib/cmake/kcontract/kcontractConfig.cmake include/kcontract/kcontract.h lib/libkcontract.a | tr '\n' ' ')"
cmake -S "$root/examples/embed" -B "$WORK/embed" -DCMAKE_PREFIX_PATH="$WORK/prefix" >"$WORK/configure.log" 2>&1 &&
  cmake --build "$WORK/embed" >"$WORK/build.log" 2>&1 || { cat "$WORK/configure.log" "$WORK/build.log"; exit 1; }
echo "== built examples/embed against it"
cd "$WORK"
printf 'kcontract 1\nkernel k(x: f32[N]) -> (y: f32[N])\ncontract a.b@1 for k {\n  oracle { y*[i] = x[i] + }\n}\n' > bad.kcontract
kernels="$WORK/prefix/share/kcontract"
PATH=/usr/bin:/bin "$WORK/embed/embed" "$root/examples/relu/relu.kcontract" relu "$kernels/stdlib/ops/kernels/elementwise.c:kc_relu" R=1..2
echo "exit: $?"
PATH=/usr/bin:/bin "$WORK/embed/embed" "$root/examples/relu/relu.kcontract" relu "$kernels/contracts/calibration/ops/relu_nan.c" R=1..2
echo "exit: $?"
PATH=/usr/bin:/bin "$WORK/embed/embed" "$root/examples/relu/relu.kcontract" relu "$root/examples/relu/relu_nan.c:kc_no_such_entry" 2>&1 |
  sed -E 's/-[0-9a-f]{16}\.so/-HASH.so/'
echo "exit: ${PIPESTATUS[0]}"
PATH=/usr/bin:/bin "$WORK/embed/embed" bad.kcontract relu "$root/examples/relu/relu_nan.c"
echo "exit: $?"
