# kcontract mutate --emit / --from (docs/mutate.md, "Mutants made here, run elsewhere"): the
# mutants of a kernel written to a mutant set where libclang is, and run from it (on the GPU
# machine, which has no libclang), with the outcomes a direct run gives.
kc mutate ../../stdlib/ops/kernels/softmax.c:kc_softmax data/softmax_narrow_values.kcontract \
  --mutant precision@22:3 --mutant arith@56:30 --emit "$WORK/set.json"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["entry"], s["language"], [i["path"] for i in s["includes"]], [(m["id"], m["family"], len(m["edits"])) for m in s["mutants"]])' "$WORK/set.json"
kc mutate ../../stdlib/ops/kernels/softmax.c:kc_softmax data/softmax_narrow_values.kcontract --dtype f32 \
  --no-baseline --no-suggest --from "$WORK/set.json"
# --operators narrows a set as it narrows generation.
kc mutate ../../stdlib/ops/kernels/softmax.c:kc_softmax data/softmax_narrow_values.kcontract --dtype f32 \
  --no-baseline --no-suggest --from "$WORK/set.json" --operators arith | tail -4
# The CUDA examples' mutants are emitted here, to run on the GPU machine: libclang parses them
# in clang's CUDA mode, and the kernel launched from a template (`relu<T><<<...>>>`) is reached.
kc mutate ../../examples/relu/relu.cu ../../examples/relu/relu.kcontract --emit "$WORK/relu_cu.json" | tail -1 | sed "s|$WORK|WORK|"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["language"], [i["path"] for i in s["includes"]]); [print(m["id"], m["family"], m["function"]) for m in s["mutants"]]' "$WORK/relu_cu.json"
for k in layernorm/layernorm.cu:kc_acme_layernorm matmul/matmul.cu:kc_acme_gemm softmax/softmax.cu:kc_acme_softmax; do
  kc mutate "../../examples/$k" --op relu --list | tail -1
done
# A set made from another text of the kernel, and the two flags together, are refused.
cp ../../stdlib/ops/kernels/softmax.c ../../stdlib/ops/kernels/kc_host.h "$WORK/"
echo '/* edited */' >> "$WORK/softmax.c"
kc mutate "$WORK/softmax.c:kc_softmax" data/softmax_narrow_values.kcontract --from "$WORK/set.json" 2>&1 | sed "s|$WORK|WORK|g"
kc mutate ../../stdlib/ops/kernels/softmax.c:kc_softmax data/softmax_narrow_values.kcontract --from "$WORK/set.json" --emit "$WORK/x.json" 2>&1
