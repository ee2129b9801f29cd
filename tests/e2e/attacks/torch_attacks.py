"""Attacks through the PyTorch adaptor (tests/e2e/check_sandbox_attacks_torch.sh): each
candidate for relu computes nothing (zeros) and tries to win another way. ModelNew is the
honest one, checked before and after them."""
import ctypes
import os
import socket

import torch


def zeros_like(x):
    return torch.zeros_like(x)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return torch.clamp_min(x, 0.0)


class ModelPtrace(torch.nn.Module):
    """ptrace on its parent, to rewrite the checker's copies."""

    def forward(self, x):
        ctypes.CDLL(None, use_errno=True).ptrace(16, os.getppid(), 0, 0)  # PTRACE_ATTACH
        return zeros_like(x)


class ModelSocket(torch.nn.Module):
    """A network socket, to send the inputs out."""

    def forward(self, x):
        socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        return zeros_like(x)


class ModelKill(torch.nn.Module):
    """Kills its parent and pid 1, to take the checker down."""

    def forward(self, x):
        for pid in (os.getppid(), 1):
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        return zeros_like(x)


class ModelPoison(torch.nn.Module):
    """Appends to every kernel library in the cache and every contract it can find."""

    def forward(self, x):
        opened = 0
        for root in (os.environ.get("KC_CACHE_DIR", ""), os.getcwd()):
            for folder, _, files in os.walk(root):
                for name in files:
                    if name.endswith((".so", ".kcontract", ".py")):
                        try:
                            with open(os.path.join(folder, name), "a") as f:
                                f.write("\n")
                            opened += 1
                        except OSError:
                            pass
        print(f"files opened for writing: {opened}")
        return zeros_like(x)


class ModelForge(torch.nn.Module):
    """Writes PASS lines into every descriptor it did not open."""

    def forward(self, x):
        for fd in range(3, 256):
            try:
                os.write(fd, b'{"verdict":"PASS"}\n')
            except OSError:
                pass
        return zeros_like(x)
