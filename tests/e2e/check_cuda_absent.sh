# `--backend cuda` where there is no GPU (CI and the developers' machines): every case is
# SKIPPED with a reason that names CUDA, none PASSes, and the run exits 0. The reason
# depends on the build (CUDA's own "no CUDA driver on this machine (...)" when the backend
# is built in, "not built into this kcontract" when CMake found no CUDA toolkit), so only
# what both builds print is compared: the summary and counts over the case lines.
kc check ../../examples/softmax/softmax.kcontract --impl ../../examples/softmax/softmax.cu --backend cuda \
  --dtype f32 --max-memory 1M >"$WORK/out.txt"
grep -v '^skipped: ' "$WORK/out.txt" | tail -4
# Under the table, the skips with their reason (which names CUDA).
echo "skips listed under the table: $(grep '^skipped: ' "$WORK/out.txt" | grep -ci 'cuda')"
echo "SKIPPED cases: $(grep -c '^SKIPPED' "$WORK/out.txt")"
echo "with a reason naming CUDA: $(grep -A1 '^SKIPPED' "$WORK/out.txt" | grep '^    ' | grep -v '^    repro:' | grep -ci 'cuda')"
echo "PASS cases: $(grep -c '^PASS' "$WORK/out.txt")"
