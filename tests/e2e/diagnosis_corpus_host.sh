# The diagnosis corpus on the host (tests/diagnosis/README.md): 66 buggy kernels labelled with
# their bug family and 25 conforming twins. Pins, per kernel, whether the checker names the
# label as the primary cause; tally.py exits 1 if a twin does not pass, or a kernel is missed
# or named wrong that tests/diagnosis/known_host.txt does not list (or a listed one changed).
kc check ../diagnosis/suite_host.yaml --expect >"$WORK/check.txt"
python3 ../diagnosis/tally.py ../diagnosis/suite_host.yaml "$WORK/check.txt" --known ../diagnosis/known_host.txt
