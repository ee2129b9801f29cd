# kcontract mutate on two host reference kernels of the standard ops, with small plans (f32,
# a few small shapes) and a few operators, so that it takes seconds: every mutant's outcome,
# the per-family table, the surviving mutants with their diffs, and the score lines (the
# contract's kills, the naming, the allclose baseline beside them).
kc mutate ../../stdlib/ops/kernels/elementwise.c --op relu --dtype f32 --dims R=1..3,C=1..20 \
  --operators nan-max,tail-loop,stride
kc mutate ../../stdlib/ops/kernels/reduce.c --op amax --dtype f32 --dims R=1,H=1..1000 \
  --operators nan-max,relational --format json --out "$WORK/amax.json"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); [print(m["id"], m["outcome"], m["killed_by"] or "-", "allclose:", m.get("allclose", "-")) for m in r["mutants"]]' "$WORK/amax.json"
# --list prints the mutants and their diffs and runs nothing.
kc mutate ../../stdlib/ops/kernels/reduce.c --op amax --operators nan-max --list
# --naming signatures: a mutant is named by any signature one failing case matched (the earlier measure).
kc mutate ../../stdlib/ops/kernels/reduce.c --op amax --dtype f32 --dims R=1,H=1..1000 --operators nan-max --naming signatures --no-baseline | tail -2
