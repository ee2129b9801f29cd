"""PyTorch implementations checked through the exec backend and adaptors/pytorch/kc_torch.py
(examples/suite_torch.yaml). Each correct function has a buggy twin with a realistic bug.
They run on whatever device kc_torch.py picks (cuda, mps, xpu, cpu)."""
import torch


def softmax(x):
    """acme_softmax, correct: torch.softmax subtracts the row maximum."""
    return torch.softmax(x, dim=-1)


def softmax_no_max(x):
    """acme_softmax, DELIBERATELY BUGGY: exp(x) / sum(exp(x)) without the row maximum.
    exp overflows f32 for x > 88.72 (Inf / Inf = NaN): the contract's `overflow` signature."""
    e = torch.exp(x)
    return e / e.sum(dim=-1, keepdim=True)


def relu(x):
    """acme_relu, correct: torch.relu propagates NaN."""
    return torch.relu(x)


def relu_nan(x):
    """acme_relu, DELIBERATELY BUGGY: `x > 0 ? x : 0` turns NaN into 0 (`nan-swallowed`)."""
    return torch.where(x > 0, x, torch.zeros_like(x))


class Model(torch.nn.Module):
    """A KernelBench-style problem: the reference model."""

    def forward(self, x):
        return torch.relu(x)


class ModelNew(torch.nn.Module):
    """A KernelBench-style candidate (what a generated kernel is wrapped in): correct ReLU
    through clamp_min, which propagates NaN."""

    def forward(self, x):
        return torch.clamp_min(x, 0.0)


def get_init_inputs():
    return []
