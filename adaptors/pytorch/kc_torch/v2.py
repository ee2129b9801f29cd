"""Exec protocol v2 for torch callables (docs/backends.md, "The PyTorch adaptor"): started
once per worker, it serves launch after launch over the worker's shared buffers.

- Inputs: on the CPU, strided views of the mapped memory itself (torch.frombuffer +
  as_strided: the bytes the checker wrote, padding and all); on a device, the storage each
  view spans is copied there and viewed with the same strides, and copied back into the
  mapped input after the launch, so a kernel that writes its inputs is caught.
- Outputs (target.output_style): a callable that takes its outputs gets the checker's
  poisoned views (on a device, copies of them, copied back after the launch); one that
  returns them gets the caching allocator's free memory poisoned before each launch, and what
  it returns is copied into the output views (same dtype and shape, or an error).
- The launch runs on the device's default stream, and only that stream is waited for (work
  on a stream of the kernel's own is not).
- An exception the callable raises is its nonzero status (the kernel refused the inputs: ERROR,
  or PASS where the contract demands a precondition report and the inputs break it).
- A device fault is a fault reply (CRASH); device memory or streams kept across the launches
  of a case are a resource line (device-memory-leak, stream-leak).
"""
import os
import sys
import traceback

import torch

from . import device as devmod
from . import tensors, wire
from .device_memory import REQUESTS as DEVICE_REQUESTS
from .device_memory import DeviceMemory
from .target import bind, instantiate, load_target, output_style, parse_bindings, pick_device

TRACE_TAIL = 1500


class Server:
    def __init__(self, args):
        self.args = args
        self.device = pick_device(args.device)
        if self.device.type == "cuda":
            devmod.track_streams()  # before the target imports torch.cuda.Stream
        self.module, target = load_target(args.target)
        self.fn = instantiate(self.module, target, self.device, args.mode)
        self.bound = parse_bindings(args.bind or [], self.fn)
        self.dev = devmod.Device(self.device)
        self.memory = DeviceMemory(self.dev)
        self.style = None
        self.case = None

    def launch(self, req, buffers):
        if req["case"] != self.case:
            self.case = req["case"]
            self.dev.reset()
        self._run(req, buffers)  # its tensors are gone when it returns: then the readings
        return self.dev.after_launch()

    def _run(self, req, buffers):
        ins = [None if not e["shape"] else tensors.View(e, buffers, self.memory) for e in req["inputs"]]
        outs = [tensors.View(e, buffers, self.memory) for e in req["outputs"]]
        if self.style is None:
            passed = sum(1 for e in req["inputs"] if e["name"] not in self.bound)
            self.style = output_style(self.fn, passed, len(outs), self.args.outputs)
        on_cpu = self.device.type == "cpu"
        dense = self.args.layout == "dense"
        with torch.no_grad():
            # Inputs (and given outputs) on the device, as the case's strided views.
            placed = []  # (View, its storage on the device) to copy back after the launch
            call = []
            with self.dev.launch_context():
                for e, v in zip(req["inputs"], ins):
                    if v is None:
                        value = tensors.scalar(e)
                    else:
                        flat = v.flat if on_cpu or v.on_device else v.flat.to(self.device)
                        if not (on_cpu or v.on_device):
                            placed.append((v, flat))
                        t = torch.as_strided(flat, v.shape, v.strides)
                        value = t.contiguous().clone() if dense else t
                    if e["name"] in self.bound:  # the module's own parameter or attribute (--bind)
                        bind(*self.bound[e["name"]], value)
                    else:
                        call.append(value)
                given = []
                if self.style in ("given", "out"):
                    for v in outs:
                        flat = v.flat if on_cpu or v.on_device else v.flat.to(self.device)
                        if not (on_cpu or v.on_device):
                            placed.append((v, flat))
                        given.append(torch.as_strided(flat, v.shape, v.strides))
                else:
                    self.dev.poison_free_memory([(v.flat.numel() * v.flat.element_size(), v.flat.element_size(),
                                                  v.poison_bits()) for v in outs if v.poison_bits() is not None])
            self.dev.before_launch()
            try:
                with self.dev.launch_context():
                    if self.style == "given":
                        result = self.fn(*call, *given)
                    elif self.style == "out":
                        result = self.fn(*call, out=given[0] if len(given) == 1 else tuple(given))
                    else:
                        result = self.fn(*call)
            except Exception as exc:  # noqa: BLE001
                if devmod.is_fault(exc):
                    raise
                raise Refused(exc) from exc
            self.dev.wait(device=req.get("wait") == "device")
            with self.dev.launch_context():
                if self.style == "returned":
                    got = list(result) if isinstance(result, (tuple, list)) else [result]
                    if len(got) != len(outs):
                        raise ValueError(f"kc_torch: {self.args.target} returned {len(got)} outputs; the contract has "
                                         f"{len(outs)}")
                    for v, t in zip(outs, got):
                        if not isinstance(t, torch.Tensor):
                            t = torch.as_tensor(t)
                        name = v.entry["name"]
                        if t.dtype != v.dtype:
                            raise TypeError(f"kc_torch: output '{name}' is {t.dtype}; the contract's {v.entry['dtype']} "
                                            f"is {v.dtype} (no silent cast)")
                        if t.dim() == 0 and v.shape == [1]:
                            # A scalar (a KernelBench loss's 0-dim result) for a contract's
                            # one-cell output (the standard losses' `loss: T[1]`, docs/ops.md).
                            t = t.reshape(1)
                        if list(t.shape) != v.shape:
                            raise ValueError(f"kc_torch: output '{name}' has shape {tuple(t.shape)}; expected "
                                             f"{tuple(v.shape)}")
                        v.view.copy_(t)
                elif result is not None and not (isinstance(result, torch.Tensor) and any(result is g for g in given)) \
                        and not (isinstance(result, (tuple, list)) and all(any(r is g for g in given) for r in result)):
                    raise TypeError(f"kc_torch: {self.args.target} takes its outputs as arguments ({self.style}) but "
                                    f"returned something else; return None (or the given outputs)")
                for v, flat in placed:  # inputs as the kernel left them; given outputs
                    v.flat.copy_(flat)

    def serve(self, w):
        runtime = f"torch {torch.__version__}"
        w.send({"type": "hello", "protocol": wire.PROTOCOL, "runtime": runtime, "device": str(self.device)})
        while True:
            req = w.receive()
            if req is None:
                return
            rid = req.get("id")
            try:
                if req["type"] == "perturb":
                    w.send({"type": "ok", "id": rid, "line": self.dev.set_perturbation(req["kind"])})
                    continue
                if req["type"] in DEVICE_REQUESTS:  # a streamed case's buffers (device_memory.py)
                    reply = {"type": "ok", "id": rid, **self.memory.handle(req, w.buffers)}
                    w.send(reply)
                    continue
                resource = self.launch(req, w.buffers)
                reply = {"type": "ok", "id": rid, "status": 0}
                if resource:
                    reply["resource"] = resource
            except Refused as r:  # the callable raised: torch's way of refusing its inputs
                sys.stderr.write(traceback.format_exc()[-TRACE_TAIL:])
                reply = {"type": "ok", "id": rid, "status": 1, "message": f"{type(r.exc).__name__}: {r.exc}"[:TRACE_TAIL]}
            except Exception as exc:  # noqa: BLE001  (every failure of the kernel is reported)
                text = traceback.format_exc()[-TRACE_TAIL:]
                kind = "fault" if devmod.is_fault(exc) else "error"
                reply = {"type": kind, "id": rid, "message": text if kind == "error" else str(exc)[:TRACE_TAIL]}
            sys.stdout.flush()
            sys.stderr.flush()
            w.send(reply)


class Refused(Exception):
    """The callable raised (not a device fault): reported as the kernel's nonzero status, as a C
    kernel returns one for inputs it refuses (IndexError for an out-of-range index), so a
    contract that demands precondition reports (std.iface.precondition-report@1) sees the
    report; on any other case a nonzero status is an ERROR with this message."""

    def __init__(self, exc):
        super().__init__(str(exc))
        self.exc = exc


def main(args):
    server = Server(args)  # an import error or a missing target ends the process before the hello
    server.serve(wire.Wire(int(os.environ["KC_EXEC_FD"])))
