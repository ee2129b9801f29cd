"""A KernelBench-style problem file (tests/e2e/check_exec_python_file.sh): the problem's Model,
get_inputs and get_init_inputs, and two candidates, checked as they are with
`--impl kb_relu.py[:NAME] --backend exec`."""
import torch


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)


class ModelNew(torch.nn.Module):
    """A correct candidate: clamp_min propagates NaN."""

    def forward(self, x):
        return torch.clamp_min(x, 0.0)


class ModelNewWhere(torch.nn.Module):
    """A candidate that turns NaN into 0: torch.where(x > 0, x, 0)."""

    def forward(self, x):
        return torch.where(x > 0, x, torch.zeros_like(x))


def get_inputs():
    return [torch.randn(16, 16384)]


def get_init_inputs():
    return []
