# Vendor controls (docs/ops.md, "Vendor controls"): every standard op's PyTorch implementation
# (adaptors/pytorch/vendor/vendor_ops.py, one .kcexec per op) against the op's standard
# contract, on the CPU through the exec backend and the PyTorch adaptor, at the dtypes the
# selection below names (T; int8_gemm has none: -). One line per op and dtype: the verdict,
# the cases and their verdicts (adaptors/pytorch/vendor/summarise.py), then every non-PASS
# case with its reason. Then the determinism control: torch.index_add is deterministic on
# the CPU. Not every line is PASS, and that is the finding (docs/ops.md, "Vendor controls"):
# torch 1.13's CPU kernels for bf16 layer_norm, GELU, SiLU and short GEMMs keep
# intermediates in bf16 and FAIL (torch 2.x on the H200 passes them).
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
V="$(cd ../../adaptors/pytorch/vendor && pwd)"
# The case selection, the one place to widen: every case of every op at the dtypes below,
# but those over MAX_MEMORY of host memory (SKIPPED: the large-index cases, run on the GPU
# machine). One suite entry per op, its dtypes together, so one adaptor (one import of
# torch) serves all of them: CI ran a quarter of the cases, one entry per op and dtype,
# in twice the time.
MAX_MEMORY=64M
{
  echo "kcontract-suite: 1"
  echo "backend: exec"
  echo "kernels:"
  for spec in add:3 mul:3 relu:3 gelu:3 gelu_tanh:3 silu:3 exp:3 sum:3 mean:3 amax:3 softmax:3 \
    log_softmax:3 layernorm:3 rmsnorm:3 layernorm_affine:1 rmsnorm_affine:1 l1_norm:3 l2_norm:3 frobenius_norm:3 matmul:3 bmm:3 attention:3 attention_causal:3 transpose:3 \
    matmul_diag:1 matmul_symmetric:1 matmul_upper:1 matmul_lower:1 attention_heads:1 attention_gqa:1 \
    cumsum:3 cumsum_reverse:3 cumsum_exclusive:3 cumprod:3 masked_cumsum:1 int8_gemm:0 embedding:3 sigmoid:3 tanh:3 softsign:3 hardtanh:3 hardsigmoid:3 softplus:3 \
    selu:3 leaky_relu:3 elu:3 scale:3 sum_dim:3 mean_dim:3 amax_dim:3 amin_dim:3 argmax_dim:3 argmin_dim:3 \
    conv1d:1 conv2d:1 conv2d_bias:1 conv2d_depthwise_separable:1 conv3d:1 conv_transpose1d:1 conv_transpose2d:1 conv_transpose3d:1 \
    max_pool1d:1 max_pool2d:1 max_pool3d:1 avg_pool1d:1 avg_pool2d:1 avg_pool3d:1 \
    batch_norm:1 instance_norm:1 group_norm:1 rmsnorm_channels:1 \
    mse_loss:1 huber_loss:1 kl_div:1 hinge_loss:1 cross_entropy:1 triplet_margin_loss:1 \
    swiglu:3 geglu:3 rotary:3 quantize_int8:3 dequantize_int4:3 dequantize_fp8:1 gather:3 scatter_add:3 topk:3; do
    op=${spec%%:*}
    # :1, f32 only, kept short for CI's time: the ops added since the convolutions (the
    # convolutions, pools, structured matmuls, multi-head attentions, [N, C, H, W] and affine
    # normalisations, losses, masked cumsum); docs/ops.md ("Vendor controls" and each op's
    # section) says which dtypes were measured on torch 1.13 and 2.11. :0, int8_gemm: its
    # own dtypes. dequantize_fp8: torch 1.13 has no float8 dtype, so every case is ERROR
    # here (the adaptor says so); its control needs torch 2.1 or later (the GPU machine).
    dtypes="f16, bf16, f32"
    case ${spec#*:} in 0) dtypes= ;; 1) dtypes="f32" ;; esac
    echo "  - name: $op"
    echo "    impl: $V/$op.kcexec"
    echo "    op: $op"
    echo "    expect: pass"
    [[ -n $dtypes ]] && echo "    supports: {dtypes: {T: [$dtypes]}}"
  done
} >"$WORK/suite.yaml"
kc check "$WORK/suite.yaml" --expect --timeout 300 --max-memory "$MAX_MEMORY" \
  --format jsonl --out "$WORK/ops.jsonl" >"$WORK/ops.txt"
python3 "$V/summarise.py" "$WORK/ops.jsonl"
sed -n '/^expectations:/p; /^\[exit/p' "$WORK/ops.txt"
# index_add (adaptors/pytorch/vendor/index_add.kcontract): its first case, 4096 rows into 4.
kc check "$V/index_add.kcontract" --impl "$V/index_add.kcexec" --backend exec --shard 0/4 --timeout 300 \
  --format jsonl --out "$WORK/index_add.jsonl" >"$WORK/index_add.txt"
python3 "$V/summarise.py" "$WORK/index_add.jsonl"
sed -n '/^\[exit/p' "$WORK/index_add.txt"
