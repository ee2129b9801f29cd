"""A KernelBench-style problem (Model, get_inputs, get_init_inputs) with candidates, for
tests/e2e/check_exec_problem_shape.sh: softmax over rows of 12 x 4100."""
import torch

batch_size = 12
dim = 4100


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1)


class ModelNew(torch.nn.Module):
    """Right at every shape."""

    def forward(self, x):
        return torch.softmax(x, dim=-1)


class ModelNewTiles(torch.nn.Module):
    """Softmax over the first 4096 columns (whole tiles of 1024) only; the tail is 0."""

    def forward(self, x):
        y = torch.zeros_like(x)
        n = x.shape[-1] // 1024 * 1024
        y[:, :n] = torch.softmax(x[:, :n], dim=-1)
        return y


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
