"""KernelBench level 1, problem 33 as written there (tests/e2e/check_exec_train_mode.sh): an
nn.BatchNorm2d that KernelBench never puts in eval() mode, so it normalises by the batch's
statistics (std.op.batch_norm). Its weight, bias and eps are bound to the contract's inputs."""
import torch


class Model(torch.nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.bn = torch.nn.BatchNorm2d(num_features=num_features)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.rand(4, 8, 16, 16)]


def get_init_inputs():
    return [8]
