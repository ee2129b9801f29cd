# Exec protocol v2 (docs/backends.md, "Protocol v2") with the NumPy adaptor
# tests/e2e/adaptors/np_adaptor2.py: one adaptor per worker across cases, buffers shared
# with it (a partial write shows as unwritten cells, a written input as input-modified), and
# every way an adaptor can misbehave gets its verdict without hanging or crashing the
# worker; a hang ends the adaptor and the next case starts a fresh one. Resource lines in
# its replies (as kc_torch.py sends them on CUDA) FAIL with device-memory-leak and stream-leak.
export PATH="/usr/bin:$PATH"
cp adaptors/np_adaptor2.py adaptors/np2_relu.kcexec ../../examples/relu/relu.kcontract "$WORK/"
cd "$WORK"
spec() { printf '{"protocol": "kcontract-exec/2", "python": "python3", "command": ["np_adaptor2.py"], "env": {"NP2_MODE": "%s"%s}}\n' "$1" "${2:-}" > "np2_$1.kcexec"; }
for m in relu_nan partial mutate leak_memory leak_streams status raise fault segv exit garbage long wrongid fds; do spec $m; done
spec hang ', "NP2_ONCE": "'"$WORK"'/hung"'
# The adaptor counts its starts in a file of $WORK: those two checks run with --sandbox off
# (a cell would keep it from writing there; check_sandbox_attacks*.sh test the cell).
echo "== one adaptor for every case of a worker"
NP2_PIDS="$WORK/pids" kc check relu.kcontract --impl np2_relu.kcexec --backend exec --dtype f32 --sandbox off | sed -n '/^kernel /,$p'
echo "adaptors started: $(sort -u pids | wc -l)"
echo "== misbehaving adaptors"
cat > suite.yaml <<YAML
kcontract-suite: 1
backend: exec
kernels:
  - {impl: np2_relu_nan.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..300}}}
  - {impl: np2_partial.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65..65}}}
  - {impl: np2_mutate.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65..65}}}
  - {impl: np2_leak_memory.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65..65}}}
  - {impl: np2_leak_streams.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 65..65}}}
YAML
for m in status raise fault segv exit garbage long wrongid fds; do
  echo "  - {impl: np2_$m.kcexec, contract: relu.kcontract, supports: {dtypes: [f32], dims: {N: 1..1}}}" >> suite.yaml
done
kc check suite.yaml --timeout 5 >out.txt
echo "the traceback in the ERROR's output: $(grep -c "^    |     raise ValueError" out.txt)"
echo "the adaptor's stderr in the CRASH: $(grep -c "^    | np_adaptor2: about to die on SIGSEGV" out.txt)"
grep -E '^(ERROR|CRASH|TIMEOUT|FAIL)' -A1 out.txt | grep -v '^--'
grep -E '^    violated: ' out.txt
sed -n '/^kernel /,$p' out.txt
echo "== a hang: TIMEOUT, and the next case starts a fresh adaptor"
NP2_PIDS="$WORK/hang-pids" kc check relu.kcontract --impl np2_hang.kcexec --backend exec --dtype f32 --timeout 2 --sandbox off | grep -E '^(PASS|TIMEOUT)' | sed -E 's/ +[0-9.]+ s$//'
echo "adaptors started: $(sort -u hang-pids | wc -l)"
echo "== an adaptor that cannot start: one error, exit 2"
spec noimport
kc check relu.kcontract --impl np2_noimport.kcexec --backend exec --dtype f32 2>&1 | sed -E 's/line [0-9]+/line N/'
spec badhello
kc check relu.kcontract --impl np2_badhello.kcexec --backend exec --dtype f32
echo "== the interpreter: the spec's \"python\", KC_PYTHON over it"
printf '{"protocol": "kcontract-exec/2", "python": "no-such-python3", "command": ["np_adaptor2.py"]}\n' > nopython.kcexec
kc check relu.kcontract --impl nopython.kcexec --backend exec --dtype f32
KC_PYTHON=/usr/bin/python3 kc check relu.kcontract --impl nopython.kcexec --backend exec --dtype f32 | tail -1
KC_PYTHON=/no/such/python kc check relu.kcontract --impl np2_relu.kcexec --backend exec --dtype f32
echo "== work on a private stream: the re-run that waits for the whole device names it (\"wait\": \"device\")"
spec private_stream
kc check relu.kcontract --impl np2_private_stream.kcexec --backend exec --dtype f32 --dims N=65 | grep -E '^(diagnosis|    cause|    re-run: #[0-9]+ on a busy device)'
