# KC_HOME names the data folder and comes before every other (docs/install.md). One that
# cannot be the data folder (missing, not a folder, no stdlib/ in it) is an input error, exit
# 2, naming the variable and the path, whatever the subcommand: never a silent fallback to
# another folder. An empty KC_HOME counts as unset. A binary away from both its install and
# its build tree, with no KC_HOME, says it has no data folder.
# --version with the version number written <version>.
version() { kc --version 2>&1 | sed -E 's/^kcontract [0-9][0-9.]* /kcontract <version> /'; }
export -f version
mkdir -p "$WORK/home/stdlib/ops"
cp -r ../../contracts ../../include "$WORK/home/"
cp ../../stdlib/ops/softmax.kcontract "$WORK/home/stdlib/ops/"
echo "== a data folder whose only op is softmax"
KC_HOME="$WORK/home" version
KC_HOME="$WORK/home" kc check --op relu --impl ../../stdlib/ops/kernels/elementwise.c
KC_HOME="$WORK/home" kc plan std.op.softmax@2 | head -1
echo "== a relative KC_HOME is taken from the current folder"
(cd "$WORK" && KC_HOME=home version)
echo "== an empty KC_HOME is unset: the source tree of this build"
KC_HOME= version
echo "== KC_HOME missing"
KC_HOME="$WORK/missing" version
KC_HOME="$WORK/missing" kc check --op softmax --impl ../../stdlib/ops/kernels/softmax.c
KC_HOME="$WORK/missing" kc fmt --check ../../examples/relu/relu.kcontract
echo "== KC_HOME a file"
KC_HOME="$WORK/home/include/kcontract/abi.h" kc explain std.exc.nan-propagation
echo "== KC_HOME without stdlib/"
KC_HOME="$WORK/home/contracts" version
KC_HOME="$WORK/home/contracts" kc plan std.op.softmax@2
echo "== the binary alone, outside its build tree"
mkdir -p "$WORK/bin"
ln "$KC" "$WORK/bin/kcontract" 2>/dev/null || cp "$KC" "$WORK/bin/kcontract"
KC="$WORK/bin/kcontract" version
KC="$WORK/bin/kcontract" KC_HOME="$WORK/home" version
