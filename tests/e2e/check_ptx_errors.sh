# What the ptx backend (docs/ptx.md) reports where a GPU run would crash or pass by luck, on
# small cases: an instruction outside the PTX subset (no case runs: the error names the
# instruction and its line in the PTX), an access outside every allocation (CRASH naming the
# instruction and the thread), a shared-memory reduction missing its barriers (CRASH: the
# data race, where the H200 passes it on most runs). The unit tests (test_ptx_engine.cpp)
# hold the scheduler's other findings; scripts/ptx_check.sh runs the other attack kernels: the
# refused launch (ERROR, "invalid configuration argument"), the barrier inside a
# warp-divergent branch (CRASH), the private stream (FAIL stream-race) and the leak.
for k in ptx_unknown_instruction cuda_illegal_address cuda_shared_race; do
  contract="$(cd ../../examples/softmax && pwd)/softmax.kcontract"
  entry=kc_acme_softmax
  dims="dims: {R: 1..3, H: 1..64}"
  case $k in cuda_shared_race)
    contract=std.cal.rowsum@1; entry=kc_rowsum; dims="dims: {R: 1..3, H: 1..300}";;
  esac
  printf 'kcontract-suite: 1\nbackend: ptx\nkernels:\n  - {impl: %s, entry: %s, contract: %s, supports: {dtypes: [f32], %s}}\n' \
    "$PWD/kernels/$k.cu" "$entry" "$contract" "$dims" >"$WORK/$k.yaml"
  kc check "$WORK/$k.yaml" --format jsonl --out "$WORK/$k.jsonl" >"$WORK/$k.txt" 2>&1
  echo "== $k: $(grep -o '"verdict":"[A-Z]*"' "$WORK/$k.jsonl" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
  # A kernel that cannot be loaded has no cases: the error line says why.
  grep ': error: ' "$WORK/$k.txt" | sed -E 's/-[0-9a-f]{16,}\.so/-HASH.so/g'
  # What the kernel printed (the runtime's error string, for a refused launch).
  grep -o 'launch failed: [^"]*' "$WORK/$k.txt" | sort -u | head -1
  # The reasons (the first of each), the addresses and the cache's hashes written out.
  grep -o '"reason":"[^"]*"' "$WORK/$k.jsonl" | sed -E 's/0x[0-9a-f]+/0x.../g; s/-[0-9a-f]{16,}\.so/-HASH.so/g' | sort -u | head -3
  grep -o '"signatures":\[[^]]*\]' "$WORK/$k.jsonl" | sort -u | head -3
done
