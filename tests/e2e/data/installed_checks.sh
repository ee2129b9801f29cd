# The checks of an installed kcontract that cannot read the source or the build tree, for
# install_prefix.sh (cmake --install) and install_deb.sh (the Debian package), which copy
# this script and the inputs (softmax.c with its kc_host.h, relu.kcontract) into $WORK and run
#   unshare --mount --propagation private bash "$WORK/installed_checks.sh" KCONTRACT ROOT BUILD
# In that mount namespace an empty tmpfs goes over the build folder and over the repository
# root, so nothing there can be read (the rest of the machine is untouched); then, from $WORK:
# the version and the data folder, the standard check of softmax's reference kernel (its
# summary table), explain of a class, and a contract that imports std.classes.
set -uo pipefail
bin="$1"; root="$2"; build="$3"
# A process keeps reading a tree through its working directory, mounts or not: leave it first.
cd / || exit 1
for tree in "$build" "$root"; do  # the build folder first: it may lie inside the root
  mount -t tmpfs -o size=64k,mode=755 kc-hidden "$tree" || { echo "cannot hide $tree"; exit 1; }
done
entries() { ls -A "$1" 2>/dev/null | wc -l; }  # a build folder inside the root is gone with it
echo "hidden: the source tree shows $(entries "$root") entries, the build tree $(entries "$build")"
cd "$WORK" || exit 1
kc() { "$bin" "$@"; local rc=$?; [[ $rc -ne 0 ]] && echo "[exit $rc]"; return $rc; }
echo "== kcontract --version"
kc --version | sed -E 's/^kcontract [0-9][0-9.]* /kcontract <version> /'
echo "== kcontract check --op softmax --impl softmax.c --dtype f32 (the data folder, the summary)"
kc check --op softmax --impl softmax.c --dtype f32 >out.txt
sed -n '/^data folder: /p; /^kernel /{N;p}; /^\[exit/p' out.txt
echo "== kcontract explain std.exc.nan-propagation (its first lines)"
kc explain std.exc.nan-propagation >out.txt
head -2 out.txt
grep '^Calibration: ' out.txt
echo "== a contract that imports std.classes"
kc ir relu.kcontract | grep -E '^(kernel|contract) '
