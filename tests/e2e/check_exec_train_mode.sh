# An nn.Module runs in training mode, as constructed, as KernelBench runs it (docs/backends.md,
# "The PyTorch adaptor"): KernelBench's BatchNorm2d (problem 33) normalises by the batch's
# statistics and passes std.op.batch_norm; in eval() mode (KC_TORCH_MODE=eval, the adaptor's
# --mode eval) it uses its running statistics (mean 0, variance 1 as initialised) and fails.
# The module has C = 8 channels (its running statistics' size): the problem's own shape and
# the plan's cases at C = 8.
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
export KC_TORCH_BIND="weight=bn.weight,bias=bn.bias,eps=bn.eps"
for mode in train eval; do
  echo "== mode $mode"
  KC_TORCH_MODE=$mode kc check --op batch_norm --dtype f32 --impl data/kb_batchnorm.py:Model --backend exec \
    --problem-shape --dims C=8 --timeout 120 --max-memory 256M >"$WORK/out.txt"
  # The verdicts only: two cases of N = 4 are too few for the diagnosis to tell a cause.
  sed -n '/^total/p; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
done
