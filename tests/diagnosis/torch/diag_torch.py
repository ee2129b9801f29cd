"""Diagnosis corpus, PyTorch implementations (tests/diagnosis/README.md), checked through the
exec backend and adaptors/pytorch/kc_torch.py (tests/diagnosis/suite_torch.yaml). Each buggy
function is a realistic mistake in a hand-written torch implementation of a standard op; the
label in its docstring is the expected primary signature. Each has a conforming twin below.
f32 only (supports in the suite); they run on whatever device kc_torch.py picks."""
import math

import torch
import torch.nn.functional as F

# --- buggy -------------------------------------------------------------------------------


def softmax_mean_shift(x):
    """BUGGY (overflow): the "stable" softmax that subtracts the row MEAN instead of the row
    max: exp(x - mean) still overflows once a row spreads more than ~88 above its mean."""
    e = torch.exp(x - x.mean(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)


def layernorm_eps_outside(x, eps):
    """BUGGY (eps-outside-sqrt): (x - mean) / (std + eps), eps added to the standard deviation."""
    mu = x.mean(dim=-1, keepdim=True)
    sd = x.std(dim=-1, unbiased=False, keepdim=True)
    return (x - mu) / (sd + eps)


def attention_no_scale(q, k, v):
    """BUGGY (missing-scale): softmax(q k^T) v without the 1 / sqrt(D) scale."""
    return torch.softmax(q @ k.transpose(-1, -2), dim=-1) @ v


def matmul_bf16(a, b):
    """BUGGY (reduced-precision-products): "mixed precision" matmul that casts both operands
    to bf16 and the product back to the input dtype."""
    return (a.to(torch.bfloat16) @ b.to(torch.bfloat16)).to(a.dtype)


def sum_half_acc(x):
    """BUGGY (low-precision-accumulator): a blocked row sum (chunks of 64, to bound memory)
    whose running total is a float16 tensor: every chunk's partial sum is rounded to half
    and added in half."""
    acc = torch.zeros(x.shape[:-1], dtype=torch.float16, device=x.device)
    for chunk in x.split(64, dim=-1):
        acc += chunk.sum(dim=-1).to(torch.float16)
    return acc.to(x.dtype)


def embedding_clamp(table, idx):
    """BUGGY (precondition-unreported): indices clamped into 0..V-1 "so serving never
    crashes": an out-of-range index silently returns the first or last row."""
    return F.embedding(idx.long().clamp(0, table.shape[0] - 1), table)


def relu_fmax(x):
    """BUGGY (nan-swallowed): ReLU as torch.fmax(x, 0): fmax returns the non-NaN operand, so
    NaN becomes 0."""
    return torch.fmax(x, torch.zeros_like(x))


def add_inplace(a, b):
    """BUGGY (input-modified): the residual add written in place, a += b, returning a: the
    caller's a is overwritten."""
    a += b
    return a


def mean_wrong_dim_count(x):
    """BUGGY (missing-scale): the row mean as sum(-1) / x.shape[0], the row count, where
    the divisor is the row length x.shape[-1]: right only for square inputs."""
    return x.sum(dim=-1) / x.shape[0]


# --- conforming twins --------------------------------------------------------------------


def softmax(x):
    """Twin of softmax_mean_shift: the max shift."""
    e = torch.exp(x - x.amax(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)


def layernorm(x, eps):
    """Twin of layernorm_eps_outside: (x - mean) / sqrt(var + eps)."""
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps)


def attention(q, k, v):
    """Twin of attention_no_scale."""
    return torch.softmax((q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1]), dim=-1) @ v


def matmul(a, b):
    """Twin of matmul_bf16."""
    return a @ b


def sum_rows(x):
    """Twin of sum_half_acc: the same chunks, an f32 running total."""
    acc = torch.zeros(x.shape[:-1], dtype=torch.float32, device=x.device)
    for chunk in x.split(64, dim=-1):
        acc += chunk.sum(dim=-1, dtype=torch.float32)
    return acc.to(x.dtype)


def embedding(table, idx):
    """Twin of embedding_clamp: out-of-range indices raise, as torch.embedding does."""
    i = idx.long()
    if i.numel() and (int(i.min()) < 0 or int(i.max()) >= table.shape[0]):
        raise IndexError("embedding: index out of range")
    return F.embedding(i, table)


def relu(x):
    """Twin of relu_fmax: torch.relu propagates NaN."""
    return torch.relu(x)


def add(a, b):
    """Twin of add_inplace."""
    return a + b


def mean(x):
    """Twin of mean_wrong_dim_count."""
    return x.sum(dim=-1) / x.shape[-1]
