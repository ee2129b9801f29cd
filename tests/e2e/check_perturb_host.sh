# Perturbation on the host backend (docs/checking.md, "Perturbation"): the plan gives each
# case of rowsum_perturbed one of noise, launch_order and occupancy; every case says what
# ran beside the kernel, or that the host cannot do it (launch_order), in the text report
# and in JSON Lines. A correct row sum passes every one; the racy one fails them
# nondeterministic. The unperturbed contract's case carries no perturbation line.
data=data
cal=../../contracts/calibration
echo "--- the plan"
kc plan "$data/rowsum_perturbed.kcontract" | grep -oE '^  #[0-9]+ .*(noise|launch_order|occupancy)' | awk '{print $1, $2, $NF}'
echo "--- the correct row sum, perturbed"
kc check "$data/rowsum_perturbed.kcontract" --impl "$cal/rowsum.c:kc_cal_rowsum" --format jsonl --out "$WORK/ok.jsonl" | grep -E '^(PASS|FAIL)' | awk '{print $1, $2}'
python3 -c 'import json,sys; [print(r["number"], r["verdict"], r.get("perturbation")) for r in map(json.loads, open(sys.argv[1]))]' "$WORK/ok.jsonl"
echo "--- the racy row sum, perturbed"
kc check "$data/rowsum_perturbed.kcontract" --impl "$cal/rowsum_racy.c:kc_cal_rowsum" | grep -E '^(PASS|FAIL)|^    (signature|perturbation)'
echo "--- unperturbed: no perturbation line"
kc check "$data/rowsum_plain.kcontract" --impl "$cal/rowsum.c:kc_cal_rowsum" --format jsonl --out "$WORK/plain.jsonl" >/dev/null
python3 -c 'import json,sys; [print(r["verdict"], "perturbation" in r) for r in map(json.loads, open(sys.argv[1]))]' "$WORK/plain.jsonl"
