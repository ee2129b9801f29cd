# `kcontract prove` finds problems and shows counterexamples: a division by zero, tensors past
# 2^31 and 2^32 elements whose large-index cases the plan dropped (the hint names the one
# case), a tolerance a correct implementation exceeds.
kc prove --timeout 4 data/problems.kcontract
echo "--- an obligation skipped (an integer output): the last line says why, not 'raise --timeout'"
kc prove --timeout 4 data/int_output.kcontract 2>&1 | grep -E "^skipped|not proven"
echo "--- round(i8, x) in an oracle: the facts about round() for an integer dtype (once an internal error)"
kc prove --timeout 4 data/round_int8.kcontract 2>&1 | grep -E "^prove:|error"
echo "--- --smt2 DIR writes the queries it runs"
kc prove --timeout 4 --smt2 "$WORK/q" data/vacuous.kcontract >/dev/null 2>&1
echo "exit $?"
ls "$WORK/q"
echo "--- --json: answers, verdicts and models"
"$KC" prove --timeout 4 --json data/vacuous.kcontract | python3 -c '
import json, sys
d = json.load(sys.stdin)
for o in d["obligations"]:
    print(" ".join(x for x in (o["id"], o["answer"], o["verdict"], o.get("message", "")) if x))
s = d["summary"]
print({k: v for k, v in s.items() if k != "seconds"}, d["solver"])
'
echo "--- --only KIND: the obligations of those kinds alone (skipped ones too)"
kc prove --timeout 4 --only index-width-31,index-width-32 data/problems.kcontract 2>/dev/null | grep -E "^std|^[a-z]+\.|verdict|^prove:"
echo "--- input errors: exit 2"
kc prove --timeout 0 data/vacuous.kcontract
kc prove nosuch.kcontract
kc prove --only blind-band data/vacuous.kcontract
