#!/usr/bin/env python3
"""kcontract exec adaptor for PyTorch (docs/backends.md, "The PyTorch adaptor").

Checks a plain Python callable or a KernelBench-style ModelNew class, unchanged, on the
device torch reports, through kcontract's exec backend:

    kc_torch.py [--device DEV] [--layout strided|dense] TARGET REQUEST.json

TARGET is MODULE:NAME, where MODULE is an importable module (the exec spec's folder is on
sys.path) or a path to a .py file, and NAME is a function, or a class (an nn.Module such as
KernelBench's ModelNew) that is instantiated once per launch with the module's
get_init_inputs() when it has one, else with no arguments, moved to the device, and called.

The inputs come in the contract's order; a rank-0 input (a scalar such as layernorm's eps)
is passed as a Python number. The callable returns the outputs in the contract's order (one
tensor, or a tuple/list of them), in the contract's dtype and shape; they are written back
as they are and kcontract judges them.

--device (or $KC_TORCH_DEVICE): cuda, mps, xpu, cpu, or auto (the default: the first of
cuda, mps, xpu that torch reports available, else cpu).
--layout (or $KC_TORCH_LAYOUT): strided (the default) hands each input as the strided view
the contract's case asks for (torch.as_strided over the storage kcontract wrote, padding
and all), so layout bugs show; dense hands contiguous copies.
"""
import argparse
import importlib
import importlib.util
import json
import os
import sys

import numpy as np
import torch

TORCH_DTYPES = {
    "bool": torch.bool, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
    "i64": torch.int64, "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
}


def pick_device(name):
    if name and name != "auto":
        return torch.device(name)
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    xpu = getattr(torch, "xpu", None)
    if xpu is not None and xpu.is_available():
        return torch.device("xpu")
    return torch.device("cpu")


def load_target(target):
    module_name, sep, attr = target.rpartition(":")
    if not sep or not module_name or not attr:
        raise SystemExit(f"kc_torch: TARGET must be MODULE:NAME, not {target!r}")
    if module_name.endswith(".py") or os.sep in module_name:
        spec = importlib.util.spec_from_file_location("kc_torch_target", module_name)
        if spec is None or spec.loader is None:
            raise SystemExit(f"kc_torch: cannot load {module_name!r}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
    if not hasattr(module, attr):
        raise SystemExit(f"kc_torch: {module_name!r} has no {attr!r}")
    return module, getattr(module, attr)


def to_torch(array, dtype):
    if dtype == "bf16":  # raw bits in a '<u2' array
        return torch.from_numpy(array.view(np.int16).copy()).view(torch.bfloat16)
    if dtype not in TORCH_DTYPES:
        raise SystemExit(f"kc_torch: dtype {dtype} has no torch equivalent here")
    return torch.from_numpy(np.ascontiguousarray(array).copy())


def to_numpy(tensor):
    tensor = tensor.detach().to("cpu").contiguous()
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(np.uint16)
    return tensor.numpy()


def make_input(entry, device, layout):
    if not entry["shape"]:  # rank 0: a Python number
        return np.load(entry["file"]).item() if entry["dtype"] != "bf16" else to_torch(np.load(entry["file"]), "bf16").item()
    if layout == "strided" and "storage_file" in entry:
        storage = to_torch(np.load(entry["storage_file"]), entry["dtype"]).to(device)
        return torch.as_strided(storage, entry["shape"], entry["strides"])
    return to_torch(np.load(entry["file"]), entry["dtype"]).to(device)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", default=os.environ.get("KC_TORCH_DEVICE", "auto"))
    p.add_argument("--layout", choices=["strided", "dense"], default=os.environ.get("KC_TORCH_LAYOUT", "strided"))
    p.add_argument("target")
    p.add_argument("request")
    args = p.parse_args()

    with open(args.request) as f:
        request = json.load(f)
    device = pick_device(args.device)
    module, target = load_target(args.target)
    inputs = [make_input(e, device, args.layout) for e in request["inputs"]]

    if isinstance(target, type):
        init = module.get_init_inputs() if hasattr(module, "get_init_inputs") else []
        fn = target(*init)
        if isinstance(fn, torch.nn.Module):
            fn = fn.to(device).eval()
    else:
        fn = target
    with torch.no_grad():
        result = fn(*inputs)
    if device.type == "cuda":
        torch.cuda.synchronize()
    outputs = list(result) if isinstance(result, (tuple, list)) else [result]
    wanted = request["outputs"]
    if len(outputs) != len(wanted):
        raise SystemExit(f"kc_torch: {args.target} returned {len(outputs)} outputs; the contract has {len(wanted)}")

    folder = request["folder"]
    response = {"status": 0, "outputs": {}, "device": str(device)}
    for k, (entry, tensor) in enumerate(zip(wanted, outputs)):
        if not isinstance(tensor, torch.Tensor):
            tensor = torch.as_tensor(tensor)
        name = f"{k}-out.npy"
        np.save(os.path.join(folder, name), to_numpy(tensor))
        response["outputs"][entry["name"]] = name
    with open(request["response"], "w") as f:
        json.dump(response, f)


if __name__ == "__main__":
    main()
