"""Vendor controls: every standard op (stdlib/ops/*.kcontract, docs/ops.md) as a PyTorch user
would write it, for the exec backend and adaptors/pytorch/kc_torch.py (docs/backends.md, "The
PyTorch adaptor"; docs/ops.md, "Vendor controls").

Each function takes the op's inputs in the contract's order (torch tensors on the adaptor's
device as the case's strided views; a rank-0 input such as eps as a Python number) and
returns its outputs in order. These are correct implementations: a FAIL of one against the
op's standard contract is either a bug of the vendor library or a false alarm of the
contract or the checker, and is investigated as such, never tuned away.

Where the standard contract asks for more than torch's default, the function follows the
contract and says so:
- Where torch takes an accumulation dtype (sum, mean, cumsum, softmax, log_softmax), an
  f16/bf16 input is computed with dtype=torch.float32 and rounded once to T: the contracts
  assume at least f32 inside (their tolerances are f32 bounds: docs/ops.md, "Dtypes"), and
  torch's default for an f16/bf16 input may keep intermediates in the input dtype on some
  backends. Where it takes none (layer_norm, gelu, silu, ...), the native kernel for T runs
  as it is, and is judged as it is.
- matmul, bmm and the convolutions run with TF32 off (torch.backends.cuda.matmul.allow_tf32
  and torch.backends.cudnn.allow_tf32 = False): the
  contracts hold f32 operands to f32 products (std.prec.operand-coercion@1). matmul_tf32 is
  the same GEMM with TF32 allowed, a control that must FAIL on CUDA (Ampere and newer) with
  `operand-coercion` (the diagnosis's narrow-input re-run; H200, torch 2.11); on the CPU, where torch has no TF32, it is an ordinary f32 GEMM and
  passes.
- int8_gemm: an exact int32 accumulator (torch._int_mm where it applies, else an integer
  matmul), then the f32 epilogue and one rounding to bf16.
- embedding reports an out-of-range index before it reads anything, as the reference kernel
  (stdlib/ops/kernels/embedding.c) returns nonzero: std.op.embedding@2 applies
  std.iface.precondition-report@1.

Old torch builds have no kernel for some dtypes on some devices (torch 1.13 on the CPU has
almost no f16 kernels: softmax, layer_norm, gelu, exp, mm, ... raise "not implemented for
'Half'"). There `_native` computes in f32 and rounds once to T, which is what such a user
has to write; everywhere else the vendor's own kernel for T runs.
"""
import math

import torch
import torch.nn.functional as F


def _native(fn, *tensors):
    """fn on the tensors as they are; where this torch has no kernel for their dtype on this
    device, fn on f32 copies of the floating-point ones and one rounding back to the first
    tensor's dtype."""
    try:
        return fn(*tensors)
    except RuntimeError as e:
        if "not implemented for" not in str(e):
            raise
    dtype = tensors[0].dtype
    return fn(*[t.float() if t.is_floating_point() else t for t in tensors]).to(dtype)


def _no_tf32():
    torch.backends.cuda.matmul.allow_tf32 = False


# Elementwise: std.op.add, mul, relu, gelu, gelu_tanh, silu, exp.

def add(a, b):
    return _native(torch.add, a, b)


def mul(a, b):
    return _native(torch.mul, a, b)


def relu(x):
    return _native(torch.relu, x)


def gelu(x):
    """The exact (erf) form: std.op.gelu."""
    return _native(lambda t: F.gelu(t, approximate="none"), x)


def gelu_tanh(x):
    """The tanh approximation: std.op.gelu_tanh."""
    return _native(lambda t: F.gelu(t, approximate="tanh"), x)


def silu(x):
    return _native(F.silu, x)


def exp(x):
    return _native(torch.exp, x)


# Activations of KernelBench level 1: std.op.sigmoid, tanh, softsign, hardtanh, hardsigmoid,
# softplus, selu, leaky_relu, elu, and scale (a tensor times a scalar). A scalar input
# (slope, alpha, s) is a Python number.

def sigmoid(x):
    return _native(torch.sigmoid, x)


def tanh(x):
    return _native(torch.tanh, x)


def softsign(x):
    """In f32, rounded once to T: torch's F.softsign is the composite x / (x.abs() + 1), three
    roundings in T, up to 1.3 ulps off at bf16 (a FAIL against the contract's one rounding,
    measured with torch 1.13 on the CPU). There is no softsign kernel to judge, so the
    control computes as the contract's model asks (docs/ops.md, "Vendor controls")."""
    return F.softsign(x.float()).to(x.dtype)


def hardtanh(x):
    return _native(lambda t: F.hardtanh(t, min_val=-1.0, max_val=1.0), x)


def hardsigmoid(x):
    return _native(F.hardsigmoid, x)


def softplus(x):
    return _native(F.softplus, x)


def selu(x):
    return _native(torch.selu, x)


def leaky_relu(x, slope):
    return _native(lambda t: F.leaky_relu(t, negative_slope=slope), x)


def elu(x, alpha):
    return _native(lambda t: F.elu(t, alpha=alpha), x)


def scale(x, s):
    return _native(lambda t: t * s, x)


# Row reductions along the last dimension: std.op.sum, mean, amax.

def sum(x):  # noqa: A001 (the op's name)
    """f32 accumulation, one rounding to T (the contract's model; torch's default keeps T)."""
    return torch.sum(x, dim=-1, dtype=torch.float32).to(x.dtype)


def mean(x):
    """f32 accumulation, one rounding to T, as sum."""
    return torch.mean(x, dim=-1, dtype=torch.float32).to(x.dtype)


def amax(x):
    """Exact in T; torch.amax propagates NaN."""
    return _native(lambda t: torch.amax(t, dim=-1), x)


def cumsum(x):
    """Inclusive prefix sum along the last dimension, f32 accumulation, one rounding to T."""
    return torch.cumsum(x, dim=-1, dtype=torch.float32).to(x.dtype)


def cumsum_reverse(x):
    """KernelBench's reverse cumsum (cumsum of the flipped row, flipped back), f32
    accumulation, one rounding to T."""
    return torch.cumsum(x.flip(-1), dim=-1, dtype=torch.float32).flip(-1).to(x.dtype)


def cumsum_exclusive(x):
    """KernelBench's exclusive cumsum: a zero, then the inclusive cumsum of the first H - 1
    cells; f32 accumulation, one rounding to T."""
    head = torch.zeros_like(x.select(-1, 0).unsqueeze(-1), dtype=torch.float32)
    body = torch.cumsum(x.narrow(-1, 0, x.size(-1) - 1), dim=-1, dtype=torch.float32)
    return torch.cat((head, body), dim=-1).to(x.dtype)


def masked_cumsum(x, mask):
    """KernelBench's torch.cumsum(x * mask, dim=1): the product in T (exact: mask is 0 or 1),
    f32 accumulation, one rounding to T."""
    return torch.cumsum(x * mask, dim=-1, dtype=torch.float32).to(x.dtype)


def cumprod(x):
    """Inclusive prefix product along the last dimension, multiplied in f32, one rounding to T."""
    return torch.cumprod(x, dim=-1, dtype=torch.float32).to(x.dtype)


# softmax, log_softmax: along the last dimension.

def softmax(x):
    """f16/bf16: computed in f32 (dtype=torch.float32), one rounding to T, as the contract
    asks (the exponentials and the row sum in at least f32)."""
    if x.dtype in (torch.float16, torch.bfloat16):
        return torch.softmax(x, dim=-1, dtype=torch.float32).to(x.dtype)
    return torch.softmax(x, dim=-1)


def log_softmax(x):
    """f16/bf16: computed in f32 (dtype=torch.float32), one rounding to T, as softmax. Without
    it, torch 1.13's CPU kernel for bf16 keeps the row's log-sum in bf16: a cell whose exact
    value is -0.0026 comes out 0 (1 + 0.0026 rounds to 1 in bf16 before the log), and cells
    of normal(0, 1) rows are off by up to 1.4 bf16 spacings, which std.op.log_softmax FAILs."""
    if x.dtype in (torch.float16, torch.bfloat16):
        return torch.log_softmax(x, dim=-1, dtype=torch.float32).to(x.dtype)
    return torch.log_softmax(x, dim=-1)


# layernorm, rmsnorm: over the last dimension, no affine; eps a Python number.

def layernorm(x, eps):
    return _native(lambda t: F.layer_norm(t, (t.shape[-1],), weight=None, bias=None, eps=eps), x)


def rmsnorm(x, eps):
    """F.rms_norm where torch has it (2.4 and later); else its formula, the mean square in f32
    (as F.rms_norm computes it for f16/bf16), one rounding to T."""
    if hasattr(F, "rms_norm"):
        return _native(lambda t: F.rms_norm(t, (t.shape[-1],), weight=None, eps=eps), x)
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + eps)).to(x.dtype)


# layernorm_affine, rmsnorm_affine: over the last dimension with the modules' parameters as
# inputs (nn.LayerNorm's weight and bias, nn.RMSNorm's weight).

def layernorm_affine(x, weight, bias, eps):
    return _native(lambda t, w, b: F.layer_norm(t, (t.shape[-1],), weight=w, bias=b, eps=eps), x, weight, bias)


def rmsnorm_affine(x, weight, eps):
    """F.rms_norm where torch has it (2.4 and later); else its formula, the mean square and the
    products in f32, one rounding to T."""
    if hasattr(F, "rms_norm"):
        return _native(lambda t, w: F.rms_norm(t, (t.shape[-1],), weight=w, eps=eps), x, weight)
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + eps) * weight.float()).to(x.dtype)


# batch_norm, instance_norm, group_norm, rmsnorm_channels: the normalisations of an
# [N, C, H, W] tensor; weight and bias (the modules' affine parameters) are inputs, the group
# count an int, eps a Python number.

def batch_norm(x, weight, bias, eps):
    """nn.BatchNorm2d's forward in training mode: the batch statistics, no running ones."""
    return _native(lambda t, w, b: F.batch_norm(t, None, None, weight=w, bias=b, training=True, eps=eps),
                   x, weight, bias)


def instance_norm(x, eps):
    """nn.InstanceNorm2d as constructed by default: no affine, no running statistics."""
    return _native(lambda t: F.instance_norm(t, eps=eps), x)


def group_norm(x, weight, bias, groups, eps):
    return _native(lambda t, w, b: F.group_norm(t, int(groups), weight=w, bias=b, eps=eps), x, weight, bias)


def rmsnorm_channels(x, eps):
    """KernelBench's RMSNorm as written there, on an f32 copy (the mean square in f32, as the
    contract assumes) and one rounding to T."""
    xf = x.float()
    return (xf / torch.sqrt(torch.mean(xf ** 2, dim=1, keepdim=True) + eps)).to(x.dtype)


# l1_norm, l2_norm, frobenius_norm: KernelBench's L1Norm, L2Norm and FrobeniusNorm as written
# there, on f32 copies (the norm in f32, as the contracts assume) and one rounding to T.

def l1_norm(x):
    xf = x.float()
    return (xf / torch.mean(torch.abs(xf), dim=1, keepdim=True)).to(x.dtype)


def l2_norm(x):
    xf = x.float()
    return (xf / torch.norm(xf, p=2, dim=1, keepdim=True)).to(x.dtype)


def frobenius_norm(x):
    xf = x.float()
    return (xf / torch.norm(xf, p="fro")).to(x.dtype)


# The losses: std.op.mse_loss, huber_loss, kl_div, hinge_loss, cross_entropy,
# triplet_margin_loss, KernelBench's MSELoss, HuberLoss, KLDivLoss, HingeLoss,
# CrossEntropyLoss and TripletMarginLoss as written there, on f32 copies (the terms and sums
# in f32, as the contracts assume; torch's bf16 (p - t) ** 2 or log would round every term to
# bf16 first) and one rounding of the scalar loss to T, returned as the contracts' one-cell
# output.

def _loss(v, dtype):
    return v.reshape(1).to(dtype)


def mse_loss(p, t):
    return _loss(torch.mean((p.float() - t.float()) ** 2), p.dtype)


def huber_loss(p, t):
    return _loss(F.smooth_l1_loss(p.float(), t.float()), p.dtype)


def kl_div(p, q):
    return _loss(F.kl_div(torch.log(p.float()), q.float(), reduction="batchmean"), p.dtype)


def hinge_loss(p, t):
    """predictions [B, D] times targets [D], broadcast along the last dim."""
    return _loss(torch.mean(torch.clamp(1 - p.float() * t.float(), min=0)), p.dtype)


def cross_entropy(x, t):
    return _loss(F.cross_entropy(x.float(), t.long()), x.dtype)


def triplet_margin_loss(a, p, n):
    return _loss(F.triplet_margin_loss(a.float(), p.float(), n.float(), margin=1.0, p=2), a.dtype)


# GEMMs: std.op.matmul, bmm (TF32 off), and the TF32 control.

def matmul(a, b):
    _no_tf32()
    return _native(torch.matmul, a, b)


def matmul_tf32(a, b):
    """CONTROL, must FAIL on CUDA with operand-coercion: cuBLAS rounds f32 operands to TF32
    (10 mantissa bits) when allowed. On the CPU torch has no TF32: an f32 GEMM, PASS."""
    torch.backends.cuda.matmul.allow_tf32 = True
    return _native(torch.matmul, a, b)


def bmm(a, b):
    _no_tf32()
    return _native(torch.bmm, a, b)


# Structured GEMMs (KernelBench level 1 #12 to #15), as the problems write them; TF32 off.

def matmul_diag(a, b):
    """diag(a) b as KernelBench #12 writes it: a.unsqueeze(1) * b (no N x N matrix)."""
    return _native(lambda x, y: x.unsqueeze(1) * y, a, b)


def matmul_symmetric(a, b):
    """torch.matmul of two symmetric matrices (KernelBench #13): the symmetry unused."""
    _no_tf32()
    return _native(torch.matmul, a, b)


def matmul_upper(a, b):
    """torch.triu(torch.matmul(a, b)) of upper-triangular a, b (KernelBench #14)."""
    _no_tf32()
    return _native(lambda x, y: torch.triu(torch.matmul(x, y)), a, b)


def matmul_lower(a, b):
    """torch.tril(torch.matmul(a, b)) of lower-triangular a, b (KernelBench #15)."""
    _no_tf32()
    return _native(lambda x, y: torch.tril(torch.matmul(x, y)), a, b)


def int8_gemm(a, b, scale_a, scale_b):
    """c = (a b) scale_a[i] scale_b[j]: an exact int32 accumulator, the epilogue in f32 (the
    accumulator converted, times scale_a, times scale_b), one rounding to bf16.

    torch._int_mm (cuBLASLt int8 with an int32 result) where it applies: on CUDA with
    M > 16 and K, N multiples of 8. Elsewhere an integer matmul in int32 (the CPU has one);
    CUDA has none for int32, so there the products are summed in f64, exact for these
    operands (|a b| <= 2^14, K <= 131072: every partial sum below 2^31 < 2^53)."""
    M, K = a.shape
    N = b.shape[1]
    acc = None
    if a.is_cuda and hasattr(torch, "_int_mm") and M > 16 and K % 8 == 0 and N % 8 == 0:
        try:
            acc = torch._int_mm(a.contiguous(), b.contiguous())
        except RuntimeError:
            acc = None  # a shape or layout this cuBLASLt build refuses: the exact fallback
    if acc is None:
        if a.device.type == "cpu":
            acc = torch.matmul(a.to(torch.int32), b.to(torch.int32))
        else:
            acc = torch.matmul(a.to(torch.float64), b.to(torch.float64)).to(torch.int32)
    c = acc.to(torch.float32) * scale_a.to(torch.float32)[:, None] * scale_b.to(torch.float32)[None, :]
    return c.to(torch.bfloat16)


# transpose: a copy into the output, y[j, i] = x[i, j].

def transpose(x):
    """The contract's output is a new [C, R] tensor: a copy, not a view of x."""
    return x.t().clone(memory_format=torch.contiguous_format)


# embedding: out[n, d] = table[idx[n], d].

def embedding(table, idx):
    """F.embedding, after the bounds check that std.op.embedding@2 asks for
    (std.iface.precondition-report@1): an index outside 0..V - 1 is reported before anything
    is read, as the reference kernel returns nonzero. torch.embedding raises IndexError on
    the CPU, but on CUDA an out-of-range index is a device-side assert that takes the whole
    CUDA context down, so the check is explicit and comes first.

    The adaptor (exec v2) turns the exception into the kernel's nonzero status, the report the
    class asks for (docs/backends.md, "The PyTorch adaptor")."""
    V = table.shape[0]
    if idx.numel() and (bool((idx < 0).any()) or bool((idx >= V).any())):
        raise IndexError(f"embedding: index out of range 0..{V - 1}")
    return F.embedding(idx.long(), table)


# attention, attention_causal: single head, scale 1/sqrt(D).

def _sdpa(q, k, v, causal):
    """F.scaled_dot_product_attention where torch has it (2.0 and later), on [1, S, D] views;
    else its formula: the scores, the softmax and the weighted sum in f32 (as SDPA's
    kernels accumulate for f16/bf16), one rounding to T."""
    if hasattr(F, "scaled_dot_product_attention"):
        return _native(lambda a, b, c: F.scaled_dot_product_attention(a[None], b[None], c[None], is_causal=causal)[0], q, k, v)
    qf, kf, vf = q.float(), k.float(), v.float()
    scores = (qf @ kf.t()) / math.sqrt(q.shape[-1])
    if causal:
        S, L = scores.shape
        mask = torch.ones(S, L, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
    return (torch.softmax(scores, dim=-1) @ vf).to(q.dtype)


def attention(q, k, v):
    return _sdpa(q, k, v, causal=False)


def attention_causal(q, k, v):
    """Query i attends to keys j <= i (is_causal: the top-left aligned mask, S == L)."""
    return _sdpa(q, k, v, causal=True)


def attention_heads(q, k, v):
    """KernelBench #97: F.scaled_dot_product_attention(q, k, v) on [B, H, S, D] (not causal,
    scale 1/sqrt(D)); before torch 2.0 its formula, the scores, the softmax and the weighted
    sum in f32, one rounding to T."""
    if hasattr(F, "scaled_dot_product_attention"):
        return _native(F.scaled_dot_product_attention, q, k, v)
    qf, kf, vf = q.float(), k.float(), v.float()
    scores = (qf @ kf.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    return (torch.softmax(scores, dim=-1) @ vf).to(q.dtype)


def attention_gqa(q, k, v):
    """Grouped-query attention: query head h with key/value head h // (H // HK). k and v
    repeat_interleave'd along the head dim (what enable_gqa=True does inside SDPA), then
    attention_heads."""
    g = q.shape[1] // k.shape[1]
    return attention_heads(q, k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1))


# A determinism control (index_add.kcontract): not a standard op.

def index_add(y0, idx, src):
    """torch.index_add (y0 with the rows of src added into the rows idx names). On the CPU a
    sequential loop, deterministic; on CUDA atomic adds, which PyTorch documents as
    nondeterministic: the control must FAIL `nondeterministic` there."""
    return torch.index_add(y0, 0, idx, src)


# Reductions of the middle dimension: std.op.sum_dim, mean_dim, amax_dim, amin_dim, argmax_dim,
# argmin_dim. x is [B, N, K], reduced over dim 1 (a reduction over any one dim of a contiguous
# tensor is this one on its [outer, reduced, inner] view).

def sum_dim(x):
    """f32 accumulation, one rounding to T, as sum."""
    return torch.sum(x, dim=1, dtype=torch.float32).to(x.dtype)


def mean_dim(x):
    """f32 accumulation, one rounding to T, as sum."""
    return torch.mean(x, dim=1, dtype=torch.float32).to(x.dtype)


def amax_dim(x):
    """Exact in T; torch.amax propagates NaN."""
    return _native(lambda t: torch.amax(t, dim=1), x)


def amin_dim(x):
    """Exact in T; torch.amin propagates NaN."""
    return _native(lambda t: torch.amin(t, dim=1), x)


def _arg_reduce(fn, x):
    """fn (torch.argmax or torch.argmin) over dim 1: int64 indices, the first of equal values,
    NaN counted as the extreme (torch's rule, which the contracts state). Where this torch has
    no kernel for T on this device, fn on an f32 copy: the conversion is exact and keeps the
    order, the ties and the NaNs, and the indices are not rounded back to T."""
    try:
        return fn(x, dim=1)
    except RuntimeError as e:
        if "not implemented for" not in str(e):
            raise
    return fn(x.float(), dim=1)


def argmax_dim(x):
    return _arg_reduce(torch.argmax, x)


def argmin_dim(x):
    return _arg_reduce(torch.argmin, x)


# Convolutions: std.op.conv1d, conv2d, conv3d (no bias). The groups are the ratio of x's
# channels to w's input channels. TF32 off: cuDNN allows it for convolutions by default
# (torch.backends.cudnn.allow_tf32 = True), and the contracts hold f32 operands to f32
# products (std.prec.operand-coercion@1).

def _conv(fn, x, w, stride, padding, dilation):
    torch.backends.cudnn.allow_tf32 = False
    groups = x.shape[1] // w.shape[1]
    return _native(lambda a, b: fn(a, b, stride=stride, padding=padding, dilation=dilation, groups=groups), x, w)


def conv1d(x, w, stride, padding, dilation):
    return _conv(F.conv1d, x, w, int(stride), int(padding), int(dilation))


def conv2d(x, w, stride_h, stride_w, padding_h, padding_w, dilation_h, dilation_w):
    return _conv(F.conv2d, x, w, (int(stride_h), int(stride_w)), (int(padding_h), int(padding_w)),
                 (int(dilation_h), int(dilation_w)))


def conv3d(x, w, stride_d, stride_h, stride_w, padding_d, padding_h, padding_w, dilation_d, dilation_h, dilation_w):
    return _conv(F.conv3d, x, w, (int(stride_d), int(stride_h), int(stride_w)),
                 (int(padding_d), int(padding_h), int(padding_w)), (int(dilation_d), int(dilation_h), int(dilation_w)))


def conv2d_bias(x, w, bias, stride_h, stride_w, padding_h, padding_w, dilation_h, dilation_w):
    """nn.Conv2d with its default bias: F.conv2d(x, w, bias, ...), TF32 off."""
    torch.backends.cudnn.allow_tf32 = False
    groups = x.shape[1] // w.shape[1]
    return _native(lambda a, b, c: F.conv2d(a, b, c, stride=(int(stride_h), int(stride_w)),
                                            padding=(int(padding_h), int(padding_w)),
                                            dilation=(int(dilation_h), int(dilation_w)), groups=groups), x, w, bias)


def conv2d_depthwise_separable(x, wd, wp, stride_h, stride_w, padding_h, padding_w, dilation_h, dilation_w):
    """KernelBench's depthwise-separable module: a depthwise F.conv2d (groups = C) then a 1 x 1
    one, two launches with the depthwise result stored in T between them; TF32 off."""
    depthwise = _conv(F.conv2d, x, wd, (int(stride_h), int(stride_w)), (int(padding_h), int(padding_w)),
                      (int(dilation_h), int(dilation_w)))
    return _conv(F.conv2d, depthwise, wp, 1, 0, 1)


# Transposed convolutions: std.op.conv_transpose1d, conv_transpose2d, conv_transpose3d (no
# bias). w is [G * CG, OG, ...], as many rows as x has channels, so the groups show only in
# the output's channels (G * OG): these take the output y after the inputs (kc_torch.py's
# 'given' outputs) and write into it. TF32 off, as for the convolutions.

def _conv_transpose(fn, x, w, y, stride, padding, output_padding, dilation):
    torch.backends.cudnn.allow_tf32 = False
    groups = y.shape[1] // w.shape[1]
    r = _native(lambda a, b: fn(a, b, stride=stride, padding=padding, output_padding=output_padding, groups=groups,
                                dilation=dilation), x, w)
    if r.shape != y.shape:  # never broadcast a wrongly shaped result into y
        raise RuntimeError(f"{fn.__name__} returned shape {tuple(r.shape)}; the output is {tuple(y.shape)}")
    y.copy_(r)


def conv_transpose1d(x, w, stride, padding, output_padding, dilation, y):
    _conv_transpose(F.conv_transpose1d, x, w, y, int(stride), int(padding), int(output_padding), int(dilation))


def conv_transpose2d(x, w, stride_h, stride_w, padding_h, padding_w, output_padding_h, output_padding_w, dilation_h,
                     dilation_w, y):
    _conv_transpose(F.conv_transpose2d, x, w, y, (int(stride_h), int(stride_w)), (int(padding_h), int(padding_w)),
                    (int(output_padding_h), int(output_padding_w)), (int(dilation_h), int(dilation_w)))


def conv_transpose3d(x, w, stride_d, stride_h, stride_w, padding_d, padding_h, padding_w, output_padding_d,
                     output_padding_h, output_padding_w, dilation_d, dilation_h, dilation_w, y):
    _conv_transpose(F.conv_transpose3d, x, w, y, (int(stride_d), int(stride_h), int(stride_w)),
                    (int(padding_d), int(padding_h), int(padding_w)),
                    (int(output_padding_d), int(output_padding_h), int(output_padding_w)),
                    (int(dilation_d), int(dilation_h), int(dilation_w)))


# Pooling: std.op.max_pool1d/2d/3d (ceil_mode=False) and avg_pool1d/2d/3d (ceil_mode=False,
# count_include_pad=True: torch's defaults). The hyperparameters come per axis.

def _ints(*v):
    return tuple(int(a) for a in v)


def max_pool1d(x, kernel_size, stride, padding, dilation):
    return _native(lambda t: F.max_pool1d(t, int(kernel_size), int(stride), int(padding), int(dilation)), x)


def max_pool2d(x, kernel_size_h, kernel_size_w, stride_h, stride_w, padding_h, padding_w, dilation_h, dilation_w):
    return _native(lambda t: F.max_pool2d(t, _ints(kernel_size_h, kernel_size_w), _ints(stride_h, stride_w),
                                          _ints(padding_h, padding_w), _ints(dilation_h, dilation_w)), x)


def max_pool3d(x, kernel_size_d, kernel_size_h, kernel_size_w, stride_d, stride_h, stride_w, padding_d, padding_h,
               padding_w, dilation_d, dilation_h, dilation_w):
    return _native(lambda t: F.max_pool3d(t, _ints(kernel_size_d, kernel_size_h, kernel_size_w),
                                          _ints(stride_d, stride_h, stride_w), _ints(padding_d, padding_h, padding_w),
                                          _ints(dilation_d, dilation_h, dilation_w)), x)


def avg_pool1d(x, kernel_size, stride, padding):
    return _native(lambda t: F.avg_pool1d(t, int(kernel_size), int(stride), int(padding)), x)


def avg_pool2d(x, kernel_size_h, kernel_size_w, stride_h, stride_w, padding_h, padding_w):
    return _native(lambda t: F.avg_pool2d(t, _ints(kernel_size_h, kernel_size_w), _ints(stride_h, stride_w),
                                          _ints(padding_h, padding_w)), x)


def avg_pool3d(x, kernel_size_d, kernel_size_h, kernel_size_w, stride_d, stride_h, stride_w, padding_d, padding_h,
               padding_w):
    return _native(lambda t: F.avg_pool3d(t, _ints(kernel_size_d, kernel_size_h, kernel_size_w),
                                          _ints(stride_d, stride_h, stride_w), _ints(padding_d, padding_h, padding_w)), x)


# swiglu, geglu, rotary: the gated MLP activations and the rotary position embedding of LLM
# inference, as HF transformers writes them (LlamaMLP, GemmaMLP, apply_rotary_pos_emb).

def swiglu(a, b):
    """LLaMA's MLP gate, F.silu(a) * b: silu(a) rounded to T, then the product rounded to T,
    two roundings that std.op.swiglu's tolerance allows."""
    return _native(lambda g, u: F.silu(g) * u, a, b)


def geglu(a, b):
    """F.gelu(a) * b with the exact (erf) GELU: gelu(a) rounded to T, then the product."""
    return _native(lambda g, u: F.gelu(g, approximate="none") * u, a, b)


def _rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rotary(x, cos, sin):
    """HF's apply_rotary_pos_emb on x [S, NH, D]: x * cos + rotate_half(x) * sin, each op in
    T, with the contract's half tables ([S, D / 2]) concatenated to HF's [S, D]
    (torch.cat((freqs, freqs), dim=-1)) and broadcast over the heads."""
    def fn(t, c, s):
        c = torch.cat((c, c), dim=-1).unsqueeze(1)
        s = torch.cat((s, s), dim=-1).unsqueeze(1)
        return t * c + _rotate_half(t) * s
    return _native(fn, x, cos, sin)

# ops-quant: std.op.quantize_int8, dequantize_int4, dequantize_fp8.

def quantize_int8(x, scale):
    """q = clamp(round(x / scale[r]), -128, 127) as int8: the quotient in f32 (one correctly
    rounded division), torch.round (ties to even), the clamp before the conversion, as a
    user writes it. A NaN survives the clamp and the conversion makes it 0 (torch 1.13 on the
    CPU; the contract states 0), so the control also shows what a device's conversion does."""
    return torch.clamp(torch.round(x.float() / scale[:, None]), -128, 127).to(torch.int8)


def dequantize_int4(q, scale):
    """y[r, c] = (nibble - 8) * scale[r, c // GS]: the two nibbles of each byte unpacked low
    first ((q & 15) - 8, (q >> 4) - 8), interleaved into 2 * C2 columns, each group's scale
    repeated over its GS = 2 * C2 / G columns, the product in T (exact nibbles times the
    scale: one rounding), as the torch fallbacks of GPTQ/AWQ loaders write it."""
    R, C2 = q.shape
    G = scale.shape[1]
    nib = torch.stack([(q & 15).to(torch.int16) - 8, (q >> 4).to(torch.int16) - 8], dim=-1).reshape(R, 2 * C2)
    s = scale.repeat_interleave(2 * C2 // G, dim=1)
    return _native(lambda v, t: v * t, nib.to(scale.dtype), s)


def dequantize_fp8(x, scale, out):
    """y = x.to(float32) * scale, rounded once to T (out's dtype: the inputs do not name T, so
    the output view is taken as given). x arrives as torch.float8_e4m3fn, which exists from
    torch 2.1: on an older torch the adaptor cannot even view the input (kc_torch: "dtype
    f8e4m3 has no torch equivalent"), and this function refuses with the same reason."""
    if not hasattr(torch, "float8_e4m3fn"):
        raise RuntimeError(f"dequantize_fp8 needs torch.float8_e4m3fn (torch >= 2.1); this is torch {torch.__version__}")
    out.copy_((x.to(torch.float32) * scale).to(out.dtype))

# Selections (ops-select): std.op.gather, scatter_add, topk, along the last dimension. An
# index outside 0..C - 1 is reported before anything is read (std.iface.precondition-report@1),
# as for embedding: torch raises IndexError on the CPU, but on CUDA an out-of-range index is a
# device-side assert that takes the whole CUDA context down. torch 1.13 takes int64 indices
# only (gather, scatter_add: "Expected dtype int64 for index"), so an int32 index is widened.

def _check_indices(idx, C, name):
    if idx.numel() and (bool((idx < 0).any()) or bool((idx >= C).any())):
        raise IndexError(f"{name}: index out of range 0..{C - 1}")


def gather(x, idx):
    """torch.gather along the last dimension: a copy, bit for bit."""
    _check_indices(idx, x.shape[-1], "gather")
    return torch.gather(x, -1, idx.long())


def scatter_add(base, idx, src):
    """torch.Tensor.scatter_add along the last dimension: base's copy with each src element
    added into the column its index names, in T (in k order on the CPU; with atomics, in any
    order, on CUDA: std.op.scatter_add@1 does not apply std.ord.determinism@1)."""
    _check_indices(idx, base.shape[-1], "scatter_add")
    return _native(lambda b, s: b.scatter_add(-1, idx.long(), s), base, src)


def topk(x, k):
    """torch.topk(x, k, dim=-1), largest first, sorted; NaN counts as the largest. torch 1.13
    has no CPU kernel for f16 ("topk_cpu" not implemented for 'Half'): there the f32 copy's
    top k, whose values convert back to f16 exactly (each is one of the inputs)."""
    try:
        values, indices = torch.topk(x, int(k), dim=-1)
    except RuntimeError as e:
        if "not implemented for" not in str(e):
            raise
        values, indices = torch.topk(x.float(), int(k), dim=-1)
        values = values.to(x.dtype)
    return values, indices
