"""Exec protocol v2's transport (docs/backends.md, "Protocol v2"): length-prefixed JSON over
the socket at $KC_EXEC_FD, buffers as memfds that come with a request (SCM_RIGHTS)."""
import array
import json
import mmap
import os
import socket
import struct

PROTOCOL = "kcontract-exec/2"


class Wire:
    def __init__(self, fd):
        self.sock = socket.socket(fileno=fd)
        self.buffers = {}  # id -> mmap of the worker's memfd

    def send(self, obj):
        data = json.dumps(obj).encode()
        self.sock.sendall(struct.pack("<I", len(data)) + data)

    def _read(self, n, fds):
        buf = bytearray()
        while len(buf) < n:
            msg, anc, _flags, _addr = self.sock.recvmsg(n - len(buf), socket.CMSG_SPACE(64 * 4))
            for level, kind, data in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    a = array.array("i")
                    a.frombytes(data[: len(data) - len(data) % a.itemsize])
                    fds.extend(a)
            if not msg:
                raise EOFError
            buf += msg
        return bytes(buf)

    def receive(self):
        """The next request, with its new buffers mapped and released ones dropped; None at
        the end (the worker closed the socket)."""
        fds = []
        try:
            (n,) = struct.unpack("<I", self._read(4, fds))
            request = json.loads(self._read(n, fds))
        except EOFError:
            return None
        for b, fd in zip(request.get("buffers", []), fds):
            self.buffers[b["id"]] = mmap.mmap(fd, b["bytes"], mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
            os.close(fd)
        for i in request.get("release", []):
            m = self.buffers.pop(i, None)
            if m is not None:
                try:
                    m.close()
                except BufferError:  # a tensor still views it: it goes with the tensor
                    pass
        return request
