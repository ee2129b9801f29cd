# A contract that applies a standard class reading 'tol' without defining one: the error
# points into the class and names the fix, `tolerance exact` (docs/language.md §9.4); with
# it the contract compiles.
cd "$WORK"
cat >copy.kcontract <<'KC'
kcontract 1

import std.classes

kernel acme_copy(x: f32[N]) -> (y: f32[N])
  where N in 1..1024

contract acme.copy@1 applies std.mem.strides@1 {
  scope {
    kernel acme_copy
  }
  oracle f64 {
    y[i] = x[i]
  }
  post {
    forall i: y[i] == y*[i]
  }
}
KC
kc ir copy.kcontract >/dev/null; echo "ir: exit $?"
sed -i 's/^  post {/  tolerance exact\n  post {/' copy.kcontract
kc ir copy.kcontract | grep -E '^  (tolerance|tol)'
