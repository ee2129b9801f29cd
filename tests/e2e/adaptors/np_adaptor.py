#!/usr/bin/env python3
"""A NumPy-only exec adaptor for the exec backend's own tests (tests/e2e/check_exec_protocol.sh):
ReLU done right, and the ways an adaptor can go wrong.
    np_adaptor.py MODE REQUEST.json
MODE: relu (correct, NaN kept), relu_nan (x > 0 ? x : 0), exit (stderr, exit 3), segv (dies
on SIGSEGV), hang (sleeps), shape (an output of the wrong shape), status (reports status 5)."""
import json
import os
import signal
import sys
import time

import numpy as np

mode, request_path = sys.argv[1], sys.argv[2]
with open(request_path) as f:
    request = json.load(f)
x = np.load(request["inputs"][0]["file"])
if mode == "exit":
    print("np_adaptor: something went wrong in the adaptor", file=sys.stderr)
    sys.exit(3)
if mode == "segv":
    os.kill(os.getpid(), signal.SIGSEGV)
if mode == "hang":
    time.sleep(600)
response = {"outputs": {}}
if mode == "status":
    response = {"status": 5, "message": "precondition violated"}
else:
    if mode == "relu":
        y = np.where(x < 0, np.float32(0), x)
    elif mode == "shape":
        y = np.zeros(x.size + 1, dtype=x.dtype)
    else:
        y = np.where(x > 0, x, np.float32(0))
    np.save(os.path.join(request["folder"], "y.npy"), y.astype(np.float32))
    response["outputs"][request["outputs"][0]["name"]] = "y.npy"
with open(request["response"], "w") as f:
    json.dump(response, f)
