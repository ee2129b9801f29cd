#!/usr/bin/env python3
"""kcontract exec adaptor for PyTorch (docs/backends.md, "The PyTorch adaptor").

Checks a plain Python callable or a KernelBench-style ModelNew class, unchanged, on the
device torch reports, through kcontract's exec backend:

    kc_torch.py [--device DEV] [--layout strided|dense] [--outputs auto|returned|given|out] TARGET [REQUEST.json]

With REQUEST.json it speaks exec protocol v1 (one launch, .npy files: kc_torch/v1.py).
Without it, started by a spec that says "protocol": "kcontract-exec/2", it speaks v2: one
process per worker, serving launches over the socket at $KC_EXEC_FD on the worker's shared
buffers (kc_torch/v2.py).

TARGET is MODULE:NAME, where MODULE is an importable module (the exec spec's folder is on
sys.path) or a path to a .py file, and NAME is a function, or a class (an nn.Module such as
KernelBench's ModelNew) instantiated with the module's get_init_inputs() when it has one,
moved to the device, and called under torch.no_grad(); in training mode as constructed, as
KernelBench runs it (--mode, $KC_TORCH_MODE: train, the default, or eval: running statistics
for a BatchNorm, no dropout).

The inputs come in the contract's order; a rank-0 input (a scalar such as layernorm's eps)
is passed as a Python number. Outputs (--outputs, $KC_TORCH_OUTPUTS; auto by default):
'returned' (one tensor or a tuple/list, in the contract's order, dtype and shape), 'given'
(the callable has exactly as many positional parameters without defaults as the contract
has inputs and outputs: it writes into the output tensors handed after the inputs and
returns None), 'out' (a keyword parameter `out`: one tensor, or a tuple of them).

--device (or $KC_TORCH_DEVICE): cuda (ROCm builds too), mps, xpu, cpu, or auto (the
default: the first of cuda, mps, xpu that torch reports available, else cpu).
--layout (or $KC_TORCH_LAYOUT): strided (the default) hands each input as the strided view
the contract's case asks for, padding and all, so layout bugs show; dense hands contiguous
copies.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kc_torch import v1, v2  # noqa: E402  (the package beside this script)


def shapes(target):
    """The items get_inputs() gives, as kcontract binds them to a contract's dims."""
    import json

    import torch

    from kc_torch.target import load_target
    from kc_torch.tensors import TORCH_DTYPES

    names = {v: k for k, v in TORCH_DTYPES.items()}
    _module, fn = load_target(target)
    items = []
    for x in fn():
        if isinstance(x, torch.Tensor):
            items.append({"shape": list(x.shape), "dtype": names.get(x.dtype, str(x.dtype))})
        else:
            items.append({"scalar": x if isinstance(x, (int, float, bool)) else str(x)})
    print(json.dumps({"inputs": items}))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", default=os.environ.get("KC_TORCH_DEVICE", "auto"))
    p.add_argument("--layout", choices=["strided", "dense"], default=os.environ.get("KC_TORCH_LAYOUT", "strided"))
    p.add_argument("--mode", choices=["train", "eval"], default=os.environ.get("KC_TORCH_MODE", "train"),
                   help="an nn.Module's mode: train (as constructed, as KernelBench runs it) or eval")
    p.add_argument("--outputs", choices=["auto", "returned", "given", "out"],
                   default=os.environ.get("KC_TORCH_OUTPUTS", "auto"))
    p.add_argument("--bind", action="append", metavar="INPUT=ATTR",
                   # KC_EXEC_BIND: an exec spec's "bind" (a suite's bind:, check --bind).
                   default=[b for var in ("KC_EXEC_BIND", "KC_TORCH_BIND")
                            for b in os.environ.get(var, "").split(",") if b],
                   help="give the contract's input INPUT to the module's attribute ATTR (a dotted path: "
                        "ln.weight, ln.eps) before each launch instead of as an argument (exec v2)")
    p.add_argument("--shapes", action="store_true",
                   help="print the shapes and dtypes of TARGET's items as JSON and exit (TARGET: a KernelBench "
                        "problem's FILE.py:get_inputs; kcontract check --problem-shape)")
    p.add_argument("target")
    p.add_argument("request", nargs="?")
    args = p.parse_args()
    if args.shapes:
        shapes(args.target)
    elif args.request:
        if args.bind:
            p.error("--bind needs exec protocol v2 (a kcontract-exec/2 spec)")
        v1.main(args)
    elif os.environ.get("KC_EXEC_FD"):
        v2.main(args)
    else:
        p.error("give REQUEST.json (exec protocol v1), or start it from a kcontract-exec/2 spec ($KC_EXEC_FD)")


if __name__ == "__main__":
    main()
