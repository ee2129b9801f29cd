#!/usr/bin/env bash
# Collects kcontract and the shared libraries it needs beyond a minimal Linux system into
# bundle/ (ignored by git), so that it runs on a machine with no package registry, such as
# the GPU machine (docs/design.md §9, docs/backends.md):
#
#   scripts/bundle.sh [BUILD_DIR]     # default: $KC_BUILD_DIR, else build
#   bundle/kcontract check ...        # there, from the repository root, unchanged
#
# BUILD_DIR is configured (Ninja, RelWithDebInfo) when it has no build files yet, then the
# kcontract target is built (-j "${KC_JOBS:-1}"). For the CUDA backend to be in the bundle,
# build where CMake finds the CUDA toolkit (configure prints "CUDA backend enabled").
#
# bundle/ holds:
#   kcontract        a wrapper script: runs kcontract.bin with bundle/lib first on the library
#                    path and KC_HOME set to bundle/share/kcontract (unless it is set). It
#                    goes through the dynamic loader's --library-path rather than
#                    LD_LIBRARY_PATH, so the programs kcontract starts (nvcc, gcc, ld) keep
#                    their own libraries (theirs may be newer than ours: gcc's libmpfr, ld's
#                    libzstd).
#   kcontract.bin    the binary, stripped
#   check_bench(.bin) bench/check_bench (bench/README.md), the same wrapper and libraries
#   lib/             every library ldd lists except the C/C++ runtime every system has
#                    (libc, libm, libpthread, libdl, librt, ld-linux, libstdc++, libgcc_s);
#                    those over 2 MiB gzipped (OpenBLAS, cvc5), unpacked by the wrapper on
#                    its first run (into lib/, or a temporary folder when lib/ is read-only)
#   compat/          libstdc++ and libgcc_s, used only when the machine's own are too old
#                    for the binary (the wrapper tries without them first)
#   share/kcontract/ the data folder (stdlib/, contracts/, include/, adaptors/, ...), as
#                    `cmake --install --component data` lays it out (docs/install.md). Through
#                    the loader, /proc/self/exe is the loader, not kcontract.bin, so the
#                    binary cannot find it beside itself: the wrapper names it in KC_HOME.
#                    Nothing in the bundle refers to the build or the source tree.
# It must stay well under the device machine's 64 MiB transfer limit (with the work tree):
# the script fails above 56 MiB.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-${KC_BUILD_DIR:-build}}"
[[ "$build" = /* ]] || build="$root/$build"
out="$root/bundle"
limit_mib=56

if [[ ! -f "$build/build.ninja" && ! -f "$build/Makefile" ]]; then
  echo "== configuring $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
echo "== building kcontract in $build"
cmake --build "$build" --target kcontract check_bench -j "${KC_JOBS:-1}"
bin="$build/kcontract"
[[ -x "$bin" ]] || { echo "bundle.sh: no $bin after the build" >&2; exit 1; }
if grep -q "the CUDA device probe" "$bin"; then
  echo "== the CUDA backend is built in"
else
  echo "== WARNING: this kcontract has no CUDA backend (CMake found no CUDA toolkit): --backend cuda cases will be SKIPPED" >&2
fi

rm -rf "$out"
mkdir -p "$out/lib" "$out/compat" "$out/share"
# The data folder, laid out by the project's install rules (cmake/install.cmake).
staging="$(mktemp -d "${TMPDIR:-/tmp}/kc-bundle-data.XXXXXX")"
cmake --install "$build" --prefix "$staging" --component data >/dev/null
cp -r "$staging/share/kcontract" "$out/share/kcontract"
rm -rf "$staging"
cp "$bin" "$out/kcontract.bin"
strip --strip-unneeded "$out/kcontract.bin"
cp "$build/bench/check_bench" "$out/check_bench.bin"
strip --strip-unneeded "$out/check_bench.bin"

# The C/C++ runtime of every Linux system: never bundled (a second libc cannot be mixed in).
is_system() {
  case "$1" in
    linux-vdso.so*|linux-gate.so*|ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libresolv.so*|libutil.so*) return 0 ;;
    libstdc++.so*|libgcc_s.so*) return 0 ;;
  esac
  return 1
}

# ldd lists the whole closure: "name => /path (addr)".
while read -r name arrow path _; do
  [[ "$arrow" == "=>" && "$path" == /* ]] || continue
  if is_system "$name"; then
    case "$name" in
      libstdc++.so*|libgcc_s.so*) cp -L "$path" "$out/compat/$name" ;;
    esac
    continue
  fi
  cp -L "$path" "$out/lib/$name"
  chmod u+w "$out/lib/$name"
  strip --strip-unneeded "$out/lib/$name" 2>/dev/null || true
done < <(ldd "$bin")
# The big ones travel gzipped (OpenBLAS alone is 35 MiB, about 10 gzipped).
for f in "$out"/lib/*; do
  if (( $(stat -c %s "$f") > 2 * 1048576 )); then gzip -6 "$f"; fi
done
if ldd "$bin" | grep -q "not found"; then
  echo "bundle.sh: ldd cannot resolve some libraries of $bin:" >&2
  ldd "$bin" | grep "not found" >&2
  exit 1
fi

cat >"$out/kcontract" <<'WRAPPER'
#!/usr/bin/env bash
# kcontract from a bundle (scripts/bundle.sh): the binary with the libraries beside it.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# kcontract re-runs itself (check --sanitize): the loader would be /proc/self/exe, so it is told.
export KC_SELF="$here/kcontract"
bin="$here/$(basename "${BASH_SOURCE[0]}").bin"  # kcontract.bin, or check_bench.bin beside its copy
libs="$here/lib"
# The data folder (the standard library, the kernel headers) travels in the bundle; run
# through the loader, the binary cannot find it beside itself.
export KC_HOME="${KC_HOME:-$here/share/kcontract}"
# Libraries that travel gzipped are unpacked once, beside their archive when lib/ is
# writable, else into a temporary folder (atomically: a concurrent run sees all or nothing).
unpacked=""
for gz in "$libs"/*.gz; do
  [[ -e "$gz" ]] || continue
  name="$(basename "$gz" .gz)"
  if [[ -w "$libs" ]]; then
    dir="$libs"
  else
    dir="${TMPDIR:-/tmp}/kcontract-bundle-$(id -u)-$(cksum <"$here/kcontract.bin" | cut -d' ' -f1)"
    mkdir -p "$dir" && unpacked="$dir"
  fi
  if [[ ! -f "$dir/$name" ]]; then
    gzip -dc "$gz" >"$dir/$name.tmp.$$" && mv -f "$dir/$name.tmp.$$" "$dir/$name" || {
      echo "kcontract bundle: cannot unpack $gz into $dir" >&2
      exit 3
    }
  fi
done
[[ -n "$unpacked" ]] && libs="$libs:$unpacked"
loader=""
for l in /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1; do
  [[ -x "$l" ]] && { loader="$l"; break; }
done
run() {
  if [[ -n "$loader" && -z "${KC_BUNDLE_USE_LD_LIBRARY_PATH:-}" ]]; then
    "$loader" --library-path "$1" "$bin" "${@:2}"
  else
    LD_LIBRARY_PATH="$1${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$bin" "${@:2}"
  fi
}
# The machine's libstdc++ first; the bundled one only when the machine's is too old.
if [[ -d "$here/compat" ]] && ! probe="$(run "$libs" --help 2>&1 >/dev/null)" && [[ "$probe" == *GLIBCXX* || "$probe" == *CXXABI* || "$probe" == *GCC_* ]]; then
  libs="$libs:$here/compat"
fi
if [[ -n "$loader" && -z "${KC_BUNDLE_USE_LD_LIBRARY_PATH:-}" ]]; then
  exec "$loader" --library-path "$libs" "$bin" "$@"
fi
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$bin" "$@"
WRAPPER
cp "$out/kcontract" "$out/check_bench"
chmod +x "$out/kcontract" "$out/kcontract.bin" "$out/check_bench" "$out/check_bench.bin"

# What the binary asks of the machine's C and C++ runtime (compare with `ldd --version` there).
need_glibc="$(objdump -T "$out/kcontract.bin" "$out"/lib/* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 || true)"
need_cxx="$(objdump -T "$out/kcontract.bin" "$out"/lib/* 2>/dev/null | grep -o 'GLIBCXX_[0-9.]*' | sort -uV | tail -1 || true)"
echo "$need_glibc $need_cxx" >"$out/requires"

# A trial run on a copy (the first run unpacks the gzipped libraries, which must not stay in
# bundle/ and double its size).
trial="$(mktemp -d "${TMPDIR:-/tmp}/kc-bundle-trial.XXXXXX")"
cp -r "$out" "$trial/bundle"
# --version also says which data folder it found: the bundle's own.
if ! version="$(cd / && env -u KC_HOME "$trial/bundle/kcontract" --version)" || [[ "$version" != *"$trial/bundle/share/kcontract (from KC_HOME)"* ]]; then
  echo "bundle.sh: the bundled kcontract does not start, or does not find its data folder:" >&2
  echo "$version" >&2
  rm -rf "$trial"
  exit 1
fi
rm -rf "$trial"

echo "== bundle/ (needs ${need_glibc:-?} and ${need_cxx:-?} on the target machine)"
(cd "$out" && ls -la kcontract kcontract.bin lib compat share/kcontract | sed 's/^/   /')
bytes="$(du -sb "$out" | cut -f1)"
mib=$(( (bytes + 1048575) / 1048576 ))
echo "== bundle size: $mib MiB ($bytes bytes); limit $limit_mib MiB"
if (( mib > limit_mib )); then
  echo "bundle.sh: the bundle is larger than $limit_mib MiB: it may not fit the device machine's transfer limit" >&2
  exit 1
fi
