"""A KernelBench-style problem whose module keeps its parameters (tests/e2e/check_exec_bind.sh):
nn.LayerNorm's weight, bias and eps are bound to the contract's inputs with the adaptor's
--bind, so the module computes with the case's values."""
import torch


class ModelNew(torch.nn.Module):
    """Correct: nn.LayerNorm over the last dimension."""

    def __init__(self, features):
        super().__init__()
        self.ln = torch.nn.LayerNorm(features)

    def forward(self, x):
        return self.ln(x)


class ModelNewNoShift(ModelNew):
    """Forgets the shift: correct only where the bias is zero."""

    def forward(self, x):
        return torch.nn.functional.layer_norm(x, self.ln.normalized_shape, self.ln.weight, None, self.ln.eps)


def get_inputs():
    return [torch.randn(16, 64)]


def get_init_inputs():
    return [64]
