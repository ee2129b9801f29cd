# The Debian package (docs/install.md): cpack makes kcontract_VERSION_ARCH.deb from this
# build, with the run-time dependencies declared; apt-get installs it (as root, as CI runs);
# /usr/bin/kcontract then finds /usr/share/kcontract with the source and the build tree out of
# its reach (data/installed_checks.sh). The package is removed again at the end unless it was
# installed before the test (then the test leaves this build's in its place).
build="$(cd "$(dirname "$KC")" && pwd)"
root="$(cd ../.. && pwd)"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$WORK/deb" >"$WORK/cpack.log" 2>&1 || { cat "$WORK/cpack.log"; exit 1; }
cd "$WORK/deb" || exit 1
debs=(kcontract_*.deb)
arch="$(dpkg --print-architecture)"
echo "== ${debs[*]}" | sed -E "s/_[0-9][0-9.]*_$arch\.deb/_<version>_<arch>.deb/g"
dpkg-deb -f "${debs[0]}" Package Section Depends Recommends Suggests
echo "== what it installs (the binary, the headers, the data folder's first level)"
dpkg-deb -c "${debs[0]}" | awk '{print $6}' | grep -E '^\./usr/(bin/.|include/.|share/kcontract/[^/]+/?$)' | sort
before="$(dpkg-query -W -f='${Status}' kcontract 2>/dev/null)"
if [[ "$before" != "install ok installed" ]]; then trap 'dpkg -r kcontract >/dev/null 2>&1' EXIT; fi
apt-get install -y -o DPkg::Lock::Timeout=300 "./${debs[0]}" >"$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log"; exit 1; }
echo "== dpkg: $(dpkg-query -W -f='${Package} ${Status}' kcontract)"
cd "$OLDPWD" || exit 1
cp data/installed_checks.sh ../../stdlib/ops/kernels/softmax.c ../../stdlib/ops/kernels/kc_host.h \
  ../../examples/relu/relu.kcontract "$WORK/"
unshare --mount --propagation private bash "$WORK/installed_checks.sh" /usr/bin/kcontract "$root" "$build"
