# The diagnosis corpus on the host (tests/diagnosis/README.md): 66 buggy kernels labelled with
# their bug family and 25 conforming twins. Pins, per kernel, whether the checker names the
# label as the primary cause; tally.py exits 1 if a twin does not pass, or a kernel is missed
# or named wrong that tests/diagnosis/known_host.txt does not list (or a listed one changed).
# The suite runs in two halves side by side, a core each (the test runs alone: RUN_SERIAL),
# and the two outputs are tallied together in the suite's order.
python3 - "$WORK" <<'PY'
import os, sys, yaml
suite_path = os.path.abspath("../diagnosis/suite_host.yaml")
suite = yaml.safe_load(open(suite_path))
base = os.path.dirname(suite_path)
kernels = suite["kernels"]
for k in kernels:
    k["impl"] = os.path.join(base, k["impl"])
half = (len(kernels) + 1) // 2
for i, part in enumerate((kernels[:half], kernels[half:])):
    yaml.safe_dump(dict(suite, kernels=part), open(os.path.join(sys.argv[1], f"half{i}.yaml"), "w"), sort_keys=False)
PY
kc check "$WORK/half0.yaml" --expect >"$WORK/check0.txt" &
kc check "$WORK/half1.yaml" --expect >"$WORK/check1.txt"
wait
cat "$WORK/check0.txt" "$WORK/check1.txt" >"$WORK/check.txt"
python3 ../diagnosis/tally.py ../diagnosis/suite_host.yaml "$WORK/check.txt" --known ../diagnosis/known_host.txt
