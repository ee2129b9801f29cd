# The suggest stage of kcontract mutate (docs/mutate.md, "Suggested cases"): a contract whose
# values stay in -10..10 lets three mutants of the host softmax survive (the row maximum kept
# in half, twice, and read from the first element only); for each, the stage finds the plan
# change that kills it (wide values) with the unmutated kernel passing the changed cases. A
# reassociation of the lane sum (equivalent in exact arithmetic) gets no suggestion.
kc mutate ../../stdlib/ops/kernels/softmax.c:kc_softmax data/softmax_narrow_values.kcontract --dtype f32 \
  --timeout 5 --jobs 2 --no-baseline --mutant precision@22:3 --mutant stride@24:24 --mutant off-by-one@36:51 \
  --mutant arith@56:30
# The JSON report carries each survivor's suggestion.
kc mutate ../../stdlib/ops/kernels/softmax.c:kc_softmax data/softmax_narrow_values.kcontract --dtype f32 \
  --timeout 5 --no-baseline --mutant precision@22:3 --format json --out "$WORK/s.json"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["suggest_changes"]); [print(m["id"], m["outcome"], m["suggestion"]) for m in r["mutants"]]' "$WORK/s.json"
# --no-suggest leaves it out.
kc mutate ../../stdlib/ops/kernels/softmax.c:kc_softmax data/softmax_narrow_values.kcontract --dtype f32 \
  --timeout 5 --no-baseline --no-suggest --mutant precision@22:3 | grep -c 'suggest' || true
