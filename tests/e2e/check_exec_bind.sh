# Module parameters bound to contract inputs (docs/backends.md, "The PyTorch adaptor"): a
# KernelBench-style ModelNew keeps nn.LayerNorm's weight, bias and eps; the contract has them as
# inputs, and KC_TORCH_BIND (the adaptor's --bind) puts each case's values into the module
# before the launch. ModelNew PASSes; ModelNewNoShift (no bias) FAILs; without the binding
# every case is an ERROR (forward takes x alone); an attribute the module lacks is one
# located error before any case (exit 2).
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
bind="weight=ln.weight,bias=ln.bias,eps=ln.eps"
for entry in "" ":ModelNewNoShift"; do
  KC_TORCH_BIND="$bind" kc check data/affine_layernorm.kcontract --impl "data/kb_layernorm.py$entry" --backend exec \
    --timeout 120 >"$WORK/out.txt"
  sed -n '/^kernel /,/^total/p; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
done
kc check data/affine_layernorm.kcontract --impl data/kb_layernorm.py --backend exec --timeout 120 >"$WORK/out.txt"
grep -m1 "adaptor: TypeError" "$WORK/out.txt" | sed -E 's/^ +//'
sed -n '/^kernel /,/^total/p; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
KC_TORCH_BIND="weight=ln.nope" kc check data/affine_layernorm.kcontract --impl data/kb_layernorm.py --backend exec \
  --timeout 120 2>&1 | grep -v '^note:'
