# Module parameters bound to contract inputs in a suite (bind:), in an exec spec ("bind"), and
# with check --bind (docs/backends.md, "The PyTorch adaptor"; docs/checking.md, "Suites"):
# the case's weight, bias and eps go into nn.LayerNorm's attributes before each launch. The
# module PASSes and the one without the shift FAILs, each as the suite expects; a failing
# case's reproducer carries the bindings, so replay binds them too. Then each misuse with its
# exact message: an input the contract lacks, a host kernel, a suite with --bind, an exec
# spec given bindings from outside, a malformed --bind.
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
kc check data/bind_suite.yaml --expect --timeout 120 --format jsonl --out "$WORK/r.jsonl" >"$WORK/out.txt"
sed -n '/^kernel /,/^total/p; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
repro="$(grep -m1 '"verdict":"FAIL"' "$WORK/r.jsonl" | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["repro"])')"
echo "$repro" | grep -o 'bind=[^ ]*'
kc replay "$repro" | grep -E '^(inputs|FAIL|PASS|ERROR)' | awk '{print $1, $2, $3}'
kc check data/affine_layernorm.kcontract --impl data/kb_layernorm_bound.kcexec --timeout 120 >"$WORK/out.txt"
sed -n '/^kernel /,/^total/p; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
kc check data/affine_layernorm.kcontract --impl data/kb_layernorm.py --bind weight=ln.weight --bind bias=ln.bias \
  --bind eps=ln.eps --timeout 120 >"$WORK/out.txt"
sed -n '/^kernel /,/^total/p; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
kc check data/bind_suite_typo.yaml
kc check data/affine_layernorm.kcontract --impl data/kb_layernorm.py --backend host --bind weight=ln.weight
kc check data/bind_suite.yaml --bind weight=ln.weight
kc check data/affine_layernorm.kcontract --impl data/kb_layernorm_bound.kcexec --bind weight=ln.weight 2>&1 | grep -v '^data folder'
kc check data/affine_layernorm.kcontract --impl data/kb_layernorm.py --bind weight
