# Narrowing a check from the command line, as a suite entry's `supports` does (docs/checking.md):
# --dims NAME=N or NAME=LO..HI (comma-separated) and --layouts KIND,... keep the cases whose
# dims are in range and whose tensors all have those layout kinds (with --dtype: the cases
# near a KernelBench problem's own shapes). Then the exact errors of malformed values.
K=../../stdlib/ops/kernels
kc check --op softmax --impl "$K/softmax.c" --dims R=1..64,H=1..1000 --layouts contiguous |
  sed -E 's/ +[0-9.]+ s$//; s/  +/  /g' | grep -E '^(PASS|FAIL|note|kernel|total|ERROR)'
kc check --op softmax --impl "$K/softmax.c" --dtype f32 --dims R=3 |
  sed -E 's/ +[0-9.]+ s$//; s/  +/  /g' | grep -E '^(PASS|FAIL|note|total)'
kc check --op softmax --impl "$K/softmax.c" --dims R=x
kc check --op softmax --impl "$K/softmax.c" --dims R=5..3
kc check --op softmax --impl "$K/softmax.c" --dims H
kc check --op softmax --impl "$K/softmax.c" --layouts contiguous,diagonal
