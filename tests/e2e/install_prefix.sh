# An install stands alone (docs/install.md): `cmake --install` into a fresh prefix puts the
# binary, the headers and the data folder there, and the installed kcontract finds its data
# beside itself with the source and the build tree out of its reach (data/installed_checks.sh).
build="$(cd "$(dirname "$KC")" && pwd)"
root="$(cd ../.. && pwd)"
cmake --install "$build" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; exit 1; }
echo "== the prefix"
(cd "$WORK/prefix" && find bin include share -maxdepth 2 | sort)
echo "== its data folder"
(cd "$WORK/prefix/share/kcontract" && find . -mindepth 1 -maxdepth 2 -type d | sort)
echo "== files that name the source or the build tree: $(grep -rlF -e "$root" -e "$build" "$WORK/prefix/share" "$WORK/prefix/include" | wc -l)"
cp data/installed_checks.sh ../../stdlib/ops/kernels/softmax.c ../../stdlib/ops/kernels/kc_host.h \
  ../../examples/relu/relu.kcontract "$WORK/"
unshare --mount --propagation private bash "$WORK/installed_checks.sh" "$WORK/prefix/bin/kcontract" "$root" "$build"
echo "== the installed Python package finds the installed binary"
env -u KC_BINARY PATH=/usr/bin:/bin PYTHONPATH="$WORK/prefix/share/kcontract/python" python3 -c 'import kcontract; print(kcontract.find_binary())'
