"""The callable under test and the device it runs on."""
import importlib
import importlib.util
import inspect
import os
import sys

import torch


def pick_device(name):
    if name and name != "auto":
        return torch.device(name)
    if torch.cuda.is_available():  # ROCm builds of torch answer here too (HIP as "cuda")
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


def instantiate(module, target, device, mode="train"):
    """A function as it is; a class (an nn.Module such as KernelBench's ModelNew) made with
    the module's get_init_inputs() and moved to the device, in training mode as constructed
    (mode 'train': KernelBench never calls eval(), so its BatchNorm uses the batch's
    statistics) or in eval() mode (mode 'eval': running statistics, no dropout)."""
    if not isinstance(target, type):
        return target
    init = module.get_init_inputs() if hasattr(module, "get_init_inputs") else []
    fn = target(*init)
    if isinstance(fn, torch.nn.Module):
        fn = fn.to(device)
        fn.train(mode == "train")
    return fn


def output_style(fn, n_in, n_out, wanted="auto"):
    """How the callable delivers its outputs: 'returned' (it returns them), 'given' (it
    writes into output tensors handed after the inputs: exactly n_in + n_out positional
    parameters without defaults) or 'out' (a keyword parameter `out`, one tensor or a tuple).
    `wanted` (--outputs, $KC_TORCH_OUTPUTS) overrides 'auto'."""
    if wanted and wanted != "auto":
        return wanted
    call = fn.forward if isinstance(fn, torch.nn.Module) else fn
    try:
        sig = inspect.signature(call)
    except (TypeError, ValueError):  # a builtin such as torch.softmax
        return "returned"
    params = list(sig.parameters.values())
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return "returned"
    required = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    if len(required) == n_in + n_out and n_out > 0:
        return "given"
    if len(required) == n_in and "out" in sig.parameters:
        return "out"
    return "returned"


def parse_bindings(specs, fn):
    """--bind INPUT=ATTR, each checked against the module now (an unknown attribute ends the
    adaptor before its hello: one located error). Returns {input name: (owner, attribute)}."""
    bound = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise SystemExit(f"kc_torch: --bind takes INPUT=ATTR (ln.weight, ln.eps), not {spec!r}")
        owner = fn
        *parents, leaf = path.split(".")
        for part in parents:
            owner = getattr(owner, part, None)
        if owner is None or not hasattr(owner, leaf):
            raise SystemExit(f"kc_torch: --bind {spec}: {type(fn).__name__} has no attribute {path!r}")
        bound[name] = (owner, leaf)
    return bound


def bind(owner, leaf, value):
    """The case's input in place of the module's attribute: a parameter or buffer takes the
    tensor itself (its dtype and shape are the case's, so a bf16 case runs in bf16), a plain
    attribute (eps) the value."""
    current = getattr(owner, leaf)
    if isinstance(current, torch.Tensor) and isinstance(value, torch.Tensor):
        if isinstance(current, torch.nn.Parameter):
            current.data = value
        else:
            setattr(owner, leaf, value)
    else:
        setattr(owner, leaf, value)
