# The attacks of check_sandbox_attacks.sh through the PyTorch adaptor on the CPU
# (tests/e2e/attacks/torch_attacks.py, docs/security.md): the adaptor is a child of the worker,
# in its cell. Each candidate computes zeros and attacks; none PASSes, the checker lives, the
# honest ModelNew PASSes before and after, and nothing under the folder was written.
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
cp attacks/torch_attacks.py "$WORK/"
cd "$WORK"
sha256sum torch_attacks.py > before.sha
for m in ModelNew ModelPtrace ModelSocket ModelKill ModelPoison ModelForge ModelNew; do
  kc check --op relu --impl "torch_attacks.py:$m" --backend exec --dtype f32 --dims R=1..2 --timeout 120 \
    --sandbox strict > out.txt 2>&1
  rc=$?
  verdict=$(awk '/^total /{for(i=1;i<=NF;i++) if ($i ~ /^(PASS|FAIL|ERROR|CRASH|TIMEOUT)$/) v=$i} END{print v}' out.txt)
  why=$(grep -m1 -oE "sandbox-violation[:,] [a-z_ ]+|files opened for writing: [0-9]+|reply announces [0-9]+ bytes" out.txt)
  echo "$m: $verdict (exit $rc)${why:+  $why}"
done
sha256sum -c --quiet before.sha && echo "the folder's files are unchanged"
