"""Exec protocol v1 (a process per launch, .npy files), as kc_torch.py always spoke it."""
import json
import os

import numpy as np
import torch

from .target import instantiate, load_target, pick_device
from .tensors import TORCH_DTYPES


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


def main(args):
    with open(args.request) as f:
        request = json.load(f)
    device = pick_device(args.device)
    module, target = load_target(args.target)
    inputs = [make_input(e, device, args.layout) for e in request["inputs"]]
    fn = instantiate(module, target, device, args.mode)
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
