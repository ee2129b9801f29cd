"""Exec protocol v2's device memory (docs/backends.md, "Device memory"): for a case too large
for host memory, the worker keeps the buffers here, on the adaptor's device, and drives them
with requests: alloc, free, write and read (through a shared staging buffer), fill (a
repeated byte pattern), generate (the CUDA support kernels' input fill, the very code the
CUDA backend runs), count (cells equal to the poison), compare (cells that differ bitwise)
and copy. Every request runs on the launch's stream and waits for it, so a device fault
shows in the reply of the request that met it."""
import ctypes

import torch

REQUESTS = ("device_memory", "alloc", "free", "write", "read", "fill", "generate", "count", "compare", "copy")

# Cells per step of a scan, so a count or a comparison over 2^31 cells needs no 2^31-cell mask.
SCAN_CELLS = 1 << 27

INT_OF_WIDTH = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}  # signed, as as_int reads


class KcsGen(ctypes.Structure):
    """kcs_gen (backends/cuda/support/kc_cuda_support.h), field for field."""
    _fields_ = [("kind", ctypes.c_int32), ("dtype", ctypes.c_int32), ("key0", ctypes.c_uint32),
                ("key1", ctypes.c_uint32), ("lo", ctypes.c_double), ("hi", ctypes.c_double),
                ("ilo", ctypes.c_int64), ("ihi", ctypes.c_int64), ("density", ctypes.c_double),
                ("prime", ctypes.c_uint64), ("offset", ctypes.c_double), ("cols", ctypes.c_uint64),
                ("first", ctypes.c_uint64)]


def as_int(pattern_hex):
    """A little-endian pattern of 1, 2, 4 or 8 bytes as the signed integer of its width."""
    raw = bytes.fromhex(pattern_hex)
    return int.from_bytes(raw, "little", signed=True), len(raw)


class DeviceMemory:
    def __init__(self, dev):
        self.dev = dev  # device.Device: the device, its launch stream
        self.buffers = {}
        self.next_id = 1
        self.support = None

    # --- the buffers ---------------------------------------------------------------------
    def region(self, where, nbytes):
        buf = self.buffers[where["buffer"]]
        start = where["offset"]
        if start + nbytes > buf.numel():
            raise ValueError(f"kc_torch: a region of {nbytes} bytes at {start} is past the end of buffer "
                             f"{where['buffer']} ({buf.numel()} bytes)")
        return buf[start:start + nbytes]

    def tensor(self, entry, dtype, count):
        """A launch argument in device memory: `count` elements of `dtype` from its offset."""
        item = torch.empty(0, dtype=dtype).element_size()
        return self.region({"buffer": entry["device_buffer"], "offset": entry["offset"]}, count * item).view(dtype)

    # --- requests ------------------------------------------------------------------------
    def handle(self, req, shared):
        with self.dev.launch_context():
            reply = getattr(self, "do_" + req["type"])(req, shared)
        self.dev.wait()
        return reply or {}

    def do_device_memory(self, req, shared):
        lib = req.get("support")
        if lib and self.dev.kind == "cuda":
            torch.cuda.init()
            self.support = ctypes.CDLL(lib)
            self.support.kcs_fill_generated.argtypes = [ctypes.c_void_p, ctypes.POINTER(KcsGen), ctypes.c_uint64,
                                                        ctypes.c_void_p]
            rc = self.support.kcs_init()
            if rc != 0:
                raise RuntimeError(f"kc_torch: the CUDA support kernels cannot start (cudaError {rc})")
        return {"memory": str(self.dev.device), "generate": self.support is not None}

    def do_alloc(self, req, shared):
        t = torch.empty(int(req["bytes"]), dtype=torch.uint8, device=self.dev.device)
        bid = self.next_id
        self.next_id += 1
        self.buffers[bid] = t
        return {"buffer": bid, "address": t.data_ptr()}

    def do_free(self, req, shared):
        self.buffers.pop(req["buffer"], None)

    def do_write(self, req, shared):
        n = int(req["bytes"])
        src = torch.frombuffer(shared[req["staging"]], dtype=torch.uint8, count=n)
        self.region(req["to"], n).copy_(src)

    def do_read(self, req, shared):
        n = int(req["bytes"])
        dst = torch.frombuffer(shared[req["staging"]], dtype=torch.uint8, count=n)
        dst.copy_(self.region(req["from"], n))

    def do_fill(self, req, shared):
        pattern = bytes.fromhex(req["pattern"])
        n = int(req["bytes"])
        if n % len(pattern):
            raise ValueError(f"kc_torch: a fill of {n} bytes is not a whole number of {len(pattern)}-byte patterns")
        if len(pattern) in INT_OF_WIDTH:
            value, width = as_int(req["pattern"])
            self.region(req["to"], n).view(INT_OF_WIDTH[width]).fill_(value)
        else:
            p = torch.tensor(list(pattern), dtype=torch.uint8, device=self.dev.device)
            self.region(req["to"], n).view(-1, len(pattern)).copy_(p.expand(n // len(pattern), len(pattern)))

    def do_generate(self, req, shared):
        if self.support is None:
            return {"done": False}  # the worker generates on the host and writes
        g = KcsGen(**{name: req["gen"][name] for name, _ in KcsGen._fields_})
        count = int(req["count"])
        where = self.buffers[req["to"]["buffer"]].data_ptr() + req["to"]["offset"]
        stream = torch.cuda.current_stream(self.dev.device).cuda_stream
        rc = self.support.kcs_fill_generated(ctypes.c_void_p(where), ctypes.byref(g), count, ctypes.c_void_p(stream))
        if rc == -1:  # KCS_UNSUPPORTED: a dtype the device fill leaves to the host
            return {"done": False}
        if rc != 0:
            raise RuntimeError(f"kc_torch: the generated fill failed (cudaError {rc})")
        return {"done": True}

    def cells(self, where, count, width):
        return self.region(where, count * width).view(INT_OF_WIDTH[width])

    def do_count(self, req, shared):
        value, width = as_int(req["pattern"])
        cells = self.cells(req["in"], int(req["count"]), width)
        found, first, most = 0, [], int(req["max_first"])
        for start in range(0, cells.numel(), SCAN_CELLS):
            hit = cells[start:start + SCAN_CELLS] == value
            k = int(hit.sum().item())
            if k and len(first) < most:
                first += [start + int(i) for i in hit.nonzero().flatten()[:most - len(first)].tolist()]
            found += k
        return {"found": found, "first": first}

    def do_compare(self, req, shared):
        width, count = int(req["element_bytes"]), int(req["count"])
        a, b = self.cells(req["a"], count, width), self.cells(req["b"], count, width)
        differ = 0
        for start in range(0, count, SCAN_CELLS):
            differ += int((a[start:start + SCAN_CELLS] != b[start:start + SCAN_CELLS]).sum().item())
        return {"differ": differ}

    def do_copy(self, req, shared):
        n = int(req["bytes"])
        self.region(req["to"], n).copy_(self.region(req["from"], n))
