"""Torch callables that cheat or fail on purpose, for tests/e2e/check_exec_v2_torch.sh
(kc_torch.py over exec protocol v2 on the CPU). Each names the attack and the verdict the
adaptor must let the checker reach."""
import os

import torch

if os.environ.get("KC_TORCH_PIDS"):  # one line per adaptor process: how many were started
    with open(os.environ["KC_TORCH_PIDS"], "a") as f:
        f.write(f"{os.getpid()}\n")


class ModelNew(torch.nn.Module):
    """softmax that computes row 0 and returns torch.empty memory for the rest: the memory was
    freed by an earlier result, so without poison it may hold the right answer. FAIL
    (unwritten-cells: the allocator's free memory holds the output's poison)."""

    def forward(self, x):
        y = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        y[:1] = torch.softmax(x[:1], dim=-1)
        return y


def relu_zero_inputs(x):
    """relu that zeroes its input afterwards: FAIL (input-modified)."""
    y = torch.relu(x)
    x.zero_()
    return y


def relu_given(x, y):
    """relu into the output it is handed (kc_torch's 'given' style): PASS."""
    torch.clamp_min(x, 0.0, out=y)


def relu_given_half(x, y):
    """relu into the given output, first half only: FAIL (unwritten-cells: y is the checker's
    poisoned buffer itself)."""
    n = x.shape[0] // 2
    torch.clamp_min(x[:n], 0.0, out=y[:n])


def relu_out(x, *, out):
    """relu into out= (kc_torch's 'out' style): PASS."""
    torch.clamp_min(x, 0.0, out=out)


def relu_f64(x):
    """relu that returns f64 for an f32 contract: ERROR naming both dtypes, not a silent cast."""
    return torch.relu(x.double())


def relu_device_fault(x):
    """What torch raises after an illegal address on CUDA: CRASH (a fault reply), not ERROR."""
    raise RuntimeError("CUDA error: an illegal memory access was encountered")


def relu_raises(x):
    """An exception in the kernel: ERROR with its last line (the traceback in the output)."""
    raise ValueError("relu_raises: refused on purpose")


def relu(x):
    """torch.relu as it is: PASS (through protocol v1 too)."""
    return torch.relu(x)


# --- CUDA only: tests/e2e/adaptors/torch_cuda_attacks.yaml (run by the lead on the GPU) ----
_kept = []


class ModelNewPrivateStream(torch.nn.Module):
    """softmax computed on a private stream and returned without waiting for it: FAIL
    (unwritten-cells: only the adaptor's stream is synchronised before the outputs are read)."""

    def forward(self, x):
        s = torch.cuda.Stream()
        y = torch.empty_like(x)
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            torch.cuda._sleep(200_000_000)  # about 0.1 s of spinning: the read comes first
            y.copy_(torch.softmax(x, dim=-1))
        return y


def relu_stream_leak(x):
    """correct relu on a stream it creates per call and keeps: FAIL (stream-leak)."""
    s = torch.cuda.Stream()
    _kept.append(s)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = torch.relu(x)
    torch.cuda.current_stream().wait_stream(s)
    return y


def relu_memory_leak(x):
    """correct relu that keeps 4 MiB of device memory per call: FAIL (device-memory-leak)."""
    _kept.append(torch.empty(1 << 20, device=x.device))
    return torch.relu(x)


def relu_device_assert(x):
    """an index far out of range on the device: a device-side assert, CRASH (a fault reply)."""
    return torch.relu(x)[torch.tensor([1 << 40], device=x.device)].expand(x.shape).contiguous()
