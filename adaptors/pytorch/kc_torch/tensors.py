"""kcontract's dtypes as torch's, and tensors over the worker's shared buffers."""
import torch

TORCH_DTYPES = {
    "bool": torch.bool, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
    "i64": torch.int64, "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
}
if hasattr(torch, "float8_e4m3fn"):
    TORCH_DTYPES["f8e4m3"] = torch.float8_e4m3fn
if hasattr(torch, "float8_e5m2"):
    TORCH_DTYPES["f8e5m2"] = torch.float8_e5m2


def torch_dtype(name):
    if name not in TORCH_DTYPES:
        raise TypeError(f"kc_torch: dtype {name} has no torch equivalent in torch {torch.__version__}")
    return TORCH_DTYPES[name]


def span(shape, strides):
    """Elements a view spans from its first element (0 for an empty view)."""
    if any(s == 0 for s in shape):
        return 0
    return 1 + sum((n - 1) * st for n, st in zip(shape, strides))


class View:
    """One argument of a launch: `flat`, the storage its view spans in the mapped buffer (a
    CPU tensor over the very bytes the checker wrote, no copy) or, for a streamed case, in the
    adaptor's device memory (`on_device`), and `view`, the strided view."""

    def __init__(self, entry, buffers, device_memory=None):
        self.entry = entry
        self.dtype = torch_dtype(entry["dtype"])
        self.shape, self.strides = list(entry["shape"]), list(entry["strides"])
        self.on_device = "device_buffer" in entry
        n = span(self.shape, self.strides)
        if n == 0:
            self.flat = torch.empty(0, dtype=self.dtype)
        elif self.on_device:
            self.flat = device_memory.tensor(entry, self.dtype, n)
        else:
            self.flat = torch.frombuffer(buffers[entry["buffer"]], dtype=self.dtype, count=n, offset=entry["offset"])
        self.view = torch.as_strided(self.flat, self.shape, self.strides)

    def poison_bits(self):
        """The output's poison as an integer of its width: the checker's template holds it in
        every cell of the view (nothing has been written yet)."""
        if self.flat.numel() == 0:
            return None
        width = self.flat.element_size()
        ints = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
        return int(self.flat[:1].view(ints[width]).item())


def scalar(entry):
    """A rank-0 input as a Python number, from its bytes."""
    raw = bytearray.fromhex(entry["bytes"])
    return torch.frombuffer(raw, dtype=torch_dtype(entry["dtype"]), count=1).item()
