"""What differs between devices: the stream the launch runs on, waiting for it alone, faults,
poisoning the caching allocator's free memory, the resources a kernel keeps (device memory,
streams) and noise from another stream (perturbation)."""
import contextlib
import gc
import weakref

import torch

# Errors a device raises for a fault in a kernel (CUDA and ROCm's texts): the launch is a
# CRASH, not an ERROR.
FAULT_TEXTS = ("illegal memory access", "device-side assert", "misaligned address", "unspecified launch failure",
               "illegal instruction", "an illegal", "hipErrorIllegalAddress", "CUDA error: unknown error")

# Memory kept per launch below this is not reported: the caching allocator's smallest block.
LEAK_BYTES_PER_LAUNCH = 512

INT_OF_WIDTH = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


_streams = None  # the live torch.cuda.Stream objects, once track_streams() ran


def track_streams():
    """Before the target is imported: torch.cuda.Stream becomes a subclass that puts every
    instance into a weak set, so counting the streams a kernel keeps is exact and costs
    nothing per launch (without it, a walk over gc.get_objects() counts them)."""
    global _streams
    if _streams is not None or not torch.cuda.is_available():
        return
    try:
        base = torch.cuda.Stream
        live = weakref.WeakSet()

        class Stream(base):
            def __new__(cls, *args, **kwargs):
                s = super().__new__(cls, *args, **kwargs)
                if "stream_id" not in kwargs:  # a new stream, not torch's wrapper of an existing one
                    live.add(s)                # (torch.cuda.current_stream() makes those)
                return s

        Stream.__name__ = Stream.__qualname__ = "Stream"
        Stream.__module__ = base.__module__
        torch.cuda.Stream = Stream
        torch.cuda.streams.Stream = Stream
        _streams = live
    except Exception:  # noqa: BLE001  (the gc walk still counts them)
        _streams = None


def is_fault(exc):
    text = str(exc)
    return any(t in text for t in FAULT_TEXTS)


class Device:
    def __init__(self, device):
        self.device = device
        self.kind = device.type
        self.stream = None
        if self.kind == "cuda":
            # The device's default stream (CUDA's legacy stream 0), as torch code runs on by
            # default: an extension that launches with <<<grid, block>>> and no stream (most
            # KernelBench candidates) is ordered with it, as in any torch program, while work
            # a kernel queues on a stream of its own (torch.cuda.Stream is non-blocking) is
            # not waited for.
            self.stream = torch.cuda.default_stream(device)
        elif self.kind == "xpu" and hasattr(torch.xpu, "Stream"):
            self.stream = torch.xpu.Stream(device)
        self.noise = None
        self._streams_base = None
        self.reset()

    # --- the launch's stream -------------------------------------------------------------
    def launch_context(self):
        if self.kind == "cuda":
            return torch.cuda.stream(self.stream)
        if self.kind == "xpu" and self.stream is not None:
            return torch.xpu.stream(self.stream)
        return contextlib.nullcontext()

    def wait(self, device=False):
        """Waits for the launch's stream only, never the device: work a kernel leaves on a
        private stream is not waited for, so its outputs show as unwritten. MPS has no streams
        of its own to choose: the device is synchronised. `device` (a request's "wait":
        "device": the allclose harness, the diagnosis's re-run) waits for the whole device."""
        if device and self.kind == "cuda":
            torch.cuda.synchronize(self.device)
        elif device and self.kind == "xpu" and hasattr(torch.xpu, "synchronize"):
            torch.xpu.synchronize(self.device)
        elif self.stream is not None:
            self.stream.synchronize()
        elif self.kind == "mps":
            torch.mps.synchronize()

    # --- poison in the allocator's free memory ---------------------------------------------
    def poison_free_memory(self, outputs):
        """Before a launch whose callable allocates its outputs: blocks the sizes of the outputs
        (and twice that) are allocated, filled with the output's poison bits and freed, so a
        kernel that returns freed memory it never wrote shows unwritten cells."""
        keep = []
        with self.launch_context():
            for nbytes, itemsize, bits in outputs:
                if nbytes == 0 or itemsize not in INT_OF_WIDTH:
                    continue
                for scale in (1, 2):
                    n = nbytes * scale // itemsize
                    t = torch.empty(n, dtype=INT_OF_WIDTH[itemsize], device=self.device)
                    t.fill_(bits)
                    keep.append(t)
        del keep  # freed into the caching allocator, poison and all (same stream: reusable at once)

    # --- resources kept across the launches of a case --------------------------------------
    def reset(self):
        self.allocated = []
        self.streams = []

    def _allocated(self):
        if self.kind == "cuda":
            return torch.cuda.memory_allocated(self.device)
        if self.kind == "xpu" and hasattr(torch.xpu, "memory_allocated"):
            return torch.xpu.memory_allocated(self.device)
        if self.kind == "mps" and hasattr(torch.mps, "current_allocated_memory"):
            return torch.mps.current_allocated_memory()
        return None

    def _live_streams(self):
        if self.kind != "cuda":
            return None
        if _streams is not None:
            # Counted by iterating, which yields only the live ones: len() of the weak set
            # was measured to keep counting streams torch had already dropped.
            return sum(1 for _ in _streams)
        return sum(1 for o in gc.get_objects() if isinstance(o, torch.cuda.Stream))

    def after_launch(self):
        """One reading per launch; a line for the report when a resource grew at every launch."""
        a = self._allocated()
        if a is not None:
            self.allocated.append(a)
        s = self._live_streams()
        if s is not None:
            self.streams.append(s)
        lines = []
        f = self.allocated
        if len(f) >= 2 and all(f[k] > f[k - 1] for k in range(1, len(f))):
            grew, launches = f[-1] - f[0], len(f) - 1
            if grew >= LEAK_BYTES_PER_LAUNCH * launches:
                lines.append(f"device memory: allocated device memory grew by {grew} bytes from launch 1 to launch "
                             f"{len(f)} ({grew // launches} bytes per launch) and never fell: the kernel keeps "
                             f"device memory it allocates")
        s = self.streams
        if len(s) >= 2 and all(s[k] > s[k - 1] for k in range(1, len(s))):
            lines.append(f"streams: {s[-1] - s[0]} more torch.cuda.Stream objects alive after launch {len(s)} than "
                         f"after launch 1: the kernel creates a stream per call and keeps it")
        return "\n".join(lines)

    # --- perturbation ----------------------------------------------------------------------
    def set_perturbation(self, kind):
        if kind in ("none", "sub_batch"):  # sub_batch: the checker runs smaller batches itself
            self.noise = None
            return ""
        if self.kind != "cuda":
            return f"not supported: kc_torch perturbs on CUDA only (this device: {self.kind}); the repeats ran unperturbed"
        if self.noise is None:
            stream = torch.cuda.Stream(self.device)
            with torch.cuda.stream(stream):
                a = torch.randn(2048, 2048, device=self.device)
                c = torch.empty_like(a)
            stream.synchronize()
            self.noise = (stream, a, c)
        return (f"noise: {kind}: 8 matmuls of 2048 x 2048 (f32) on a second CUDA stream, enqueued before each "
                f"launch, run while the kernel does")

    def before_launch(self):
        if self.noise is None:
            return
        stream, a, c = self.noise
        with torch.cuda.stream(stream):
            for _ in range(8):
                torch.matmul(a, a, out=c)
