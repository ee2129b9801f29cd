#!/usr/bin/env python3
"""A NumPy-only adaptor of exec protocol v2 (docs/backends.md, "Protocol v2") for the exec
backend's own tests (tests/e2e/check_exec_v2.sh): ReLU done right, and the ways an adaptor
can go wrong on purpose. Started once per worker; talks over the socket at $KC_EXEC_FD.

$NP2_MODE (default relu): relu (correct, NaN kept), relu_nan (x > 0 ? x : 0), partial (writes
only the first half of y), mutate (also zeroes its input), status (replies status 5), raise
(an exception: an error reply with the traceback), fault (a fault reply), segv (kills itself
with SIGSEGV), exit (exits in the middle of a launch), hang (sleeps), garbage (a reply that is
not JSON), long (a reply that announces 2 GiB), wrongid (a reply to another request), fds (a
reply that comes with a descriptor), private_stream (y is written only when the launch asks
for the whole device to be waited for, "wait": "device", as a kernel whose work is on a
stream of its own finishes only then), leak_memory / leak_streams (correct outputs, and from the second
launch of a case on, a resource line as kc_torch.py sends for device memory or streams kept), noimport (an import error before the hello), badhello (a
hello of another protocol).
$NP2_ONCE: a path; misbehave only while it does not exist (then create it), else act as relu.
$NP2_PIDS: a path; the adaptor appends its pid to it when it starts.
"""
import array
import json
import mmap
import os
import signal
import socket
import struct
import sys
import time
import traceback

import numpy as np

MODE = os.environ.get("NP2_MODE", "relu")
ONCE = os.environ.get("NP2_ONCE")

if os.environ.get("NP2_PIDS"):
    with open(os.environ["NP2_PIDS"], "a") as f:
        f.write(f"{os.getpid()}\n")
if MODE == "noimport":
    import no_such_module_for_np_adaptor2  # noqa: F401  (fails: the adaptor cannot start)

sock = socket.socket(fileno=int(os.environ["KC_EXEC_FD"]))
buffers = {}  # id -> mmap


def send(obj, fds=()):
    data = json.dumps(obj).encode()
    msg = struct.pack("<I", len(data)) + data
    if fds:
        sock.sendmsg([msg], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
    else:
        sock.sendall(msg)


def recv_exact(n, fds):
    buf = bytearray()
    while len(buf) < n:
        msg, anc, _flags, _addr = sock.recvmsg(n - len(buf), socket.CMSG_SPACE(64 * 4))
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                a = array.array("i")
                a.frombytes(data[: len(data) - len(data) % a.itemsize])
                fds.extend(a)
        if not msg:
            raise EOFError
        buf += msg
    return bytes(buf)


def recv():
    fds = []
    (n,) = struct.unpack("<I", recv_exact(4, fds))
    return json.loads(recv_exact(n, fds)), fds


def view(e):
    dt = np.dtype(e["npy_dtype"])
    return np.ndarray(e["shape"], dt, buffer=buffers[e["buffer"]], offset=e["offset"],
                      strides=[s * dt.itemsize for s in e["strides"]])


def misbehaving():
    if MODE == "relu":
        return False
    if ONCE:
        if os.path.exists(ONCE):
            return False
        open(ONCE, "w").close()
    return True


send({"type": "hello", "protocol": "kcontract-exec/0" if MODE == "badhello" else "kcontract-exec/2",
      "runtime": f"numpy {np.__version__}", "device": "cpu"})
while True:
    try:
        req, fds = recv()
    except EOFError:
        sys.exit(0)
    for b, fd in zip(req.get("buffers", []), fds):
        buffers[b["id"]] = mmap.mmap(fd, b["bytes"], mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        os.close(fd)
    for i in req.get("release", []):
        buffers.pop(i).close()
    rid = req["id"]
    if req["type"] == "perturb":
        send({"type": "ok", "id": rid, "line": "not supported: np_adaptor2 does not perturb"})
        continue
    mode = MODE if misbehaving() else "relu"
    x, y = view(req["inputs"][0]), view(req["outputs"][0])
    reply = {"type": "ok", "id": rid, "status": 0}
    if mode == "relu_nan":
        y[...] = np.where(x > 0, x, np.float32(0))
    elif mode == "partial":
        half = x.size // 2
        y[:half] = np.where(x[:half] < 0, np.float32(0), x[:half])
    elif mode == "mutate":
        y[...] = np.where(x < 0, np.float32(0), x)
        x[...] = 0
    elif mode == "status":
        reply = {"type": "ok", "id": rid, "status": 5, "message": "precondition violated"}
    elif mode == "raise":
        try:
            raise ValueError("np_adaptor2: the kernel raised on purpose")
        except ValueError:
            reply = {"type": "error", "id": rid, "message": traceback.format_exc()[-1500:]}
    elif mode == "fault":
        reply = {"type": "fault", "id": rid, "message": "an illegal memory access was encountered (on purpose)"}
    elif mode == "segv":
        print("np_adaptor2: about to die on SIGSEGV", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "exit":
        print("np_adaptor2: exiting in the middle of a launch", file=sys.stderr, flush=True)
        os._exit(4)
    elif mode == "hang":
        time.sleep(600)
    elif mode == "garbage":
        sock.sendall(struct.pack("<I", 9) + b"not json!")
        continue
    elif mode == "long":
        sock.sendall(struct.pack("<I", 2**31))
        continue
    elif mode == "wrongid":
        reply["id"] = rid + 1000
    elif mode in ("leak_memory", "leak_streams"):
        y[...] = np.where(x < 0, np.float32(0), x)
        if req["launch"] > 0:
            n = req["launch"]
            reply["resource"] = (f"device memory: allocated device memory grew by {4096 * n} bytes from launch 1 to launch {n + 1}"
                                 if mode == "leak_memory" else
                                 f"streams: {n} more streams alive after launch {n + 1} than after launch 1")
    elif mode == "private_stream":
        if req.get("wait") == "device":
            y[...] = np.where(x < 0, np.float32(0), x)
    elif mode == "fds":
        y[...] = np.where(x < 0, np.float32(0), x)
        send(reply, [sys.stderr.fileno()])
        continue
    else:
        y[...] = np.where(x < 0, np.float32(0), x)
    sys.stderr.flush()
    send(reply)
