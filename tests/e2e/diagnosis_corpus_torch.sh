# The diagnosis corpus through the PyTorch adaptor on the CPU (tests/diagnosis/README.md): 9
# buggy torch implementations labelled with their bug family and 9 conforming twins, judged
# as diagnosis_corpus_host.sh judges the host ones (known list: known_torch.txt). Two jobs at
# a time (--jobs 2: a core each, as the host corpus's two halves; the test runs alone).
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
kc check ../diagnosis/suite_torch.yaml --expect --timeout 300 --jobs 2 >"$WORK/check.txt"
python3 ../diagnosis/tally.py ../diagnosis/suite_torch.yaml "$WORK/check.txt" --known ../diagnosis/known_torch.txt
