#!/usr/bin/env python3
"""A scripted Language Server client for `kcontract lsp` (tests/e2e/lsp.sh): it speaks the
protocol's framing over the server's stdin and stdout, and prints what the server answers.
    lsp_client.py KCONTRACT SCENARIO   (SCENARIO: session, before-init, broken-framing)"""
import json
import os
import subprocess
import sys


class Client:
    def __init__(self, kc, *args):
        self.proc = subprocess.Popen([kc, "lsp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.next_id = 0
        self.notifications = []

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params=None):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}})
        while True:
            msg = self.read()
            if msg.get("id") == self.next_id:
                return msg
            self.notifications.append(msg)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri):
        """The next diagnostics published for `uri`."""
        while True:
            msg = self.notifications.pop(0) if self.notifications else self.read()
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]

    def finish(self):
        self.proc.stdin.close()
        rc = self.proc.wait(timeout=30)
        return rc, self.proc.stderr.read().decode()


def where(r):
    return f"{r['start']['line']}:{r['start']['character']}-{r['end']['line']}:{r['end']['character']}"


def show_diagnostics(label, diags):
    print(f"{label}: {len(diags)} diagnostics")
    for d in diags:
        print(f"  {where(d['range'])} severity {d['severity']} {d['code']} {d['source']}: {d['message']}")


def session(kc):
    examples = os.path.abspath("../../examples/softmax")
    good = open(os.path.join(examples, "softmax.kcontract")).read()
    path = os.path.join(os.environ["WORK"], "softmax.kcontract")
    uri = "file://" + path
    c = Client(kc)
    init = c.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
    print("initialize:", json.dumps(init["result"]["capabilities"], sort_keys=True))
    print("server:", init["result"]["serverInfo"]["name"])
    c.notify("initialized", {})

    # A broken contract: a name that does not exist, and a real index into an int dim.
    broken = good.replace("e[r, h] = exp(x[r, h] - m[r])", "e[r, h] = exp(x[r, h] - mm[r])")
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "kcontract", "version": 1, "text": broken}})
    show_diagnostics("didOpen (broken)", c.diagnostics(uri))
    row = [i for i, l in enumerate(broken.splitlines()) if "mm[r]" in l][0]
    print(f"  line {row}: {broken.splitlines()[row].strip()} | mm at character {broken.splitlines()[row].index('mm')}")

    # Characters are UTF-16 code units: a comment with é (2 bytes) and → (3 bytes) before the error.
    wide = broken.replace("exp(x[r, h] - mm[r])", "/* é → */ exp(x[r, h] - mm[r])")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": wide}]})
    show_diagnostics("didChange (non-ASCII before the error)", c.diagnostics(uri))
    print(f"  mm at character {wide.splitlines()[row].index('mm')} (UTF-16 units)")

    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": good}]})
    show_diagnostics("didChange (fixed)", c.diagnostics(uri))

    # Formatting: the example with its indentation broken; the edit must give `kcontract fmt`'s text.
    messy = good.replace("\n  scope {", "\n      scope {").replace("    seeds 4", "seeds    4")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": messy}]})
    c.diagnostics(uri)
    edits = c.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}})["result"]
    print("formatting (messy):", len(edits), "edit(s), range", where(edits[0]["range"]),
          "; lines in the document:", messy.count("\n"))
    print("  the edit's text is the example's canonical form:", edits[0]["newText"] == good)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": good}]})
    c.diagnostics(uri)
    edits = c.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}})
    print("formatting (canonical):", edits["result"])

    # Hover over a standard class's ID, and over a word that is not one.
    lines = good.splitlines()
    row = [i for i, l in enumerate(lines) if "std.mem.tail-mask@1" in l][0]
    col = lines[row].index("std.mem.tail-mask@1") + 9
    h = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": row, "character": col}})["result"]
    print(f"hover at {row}:{col}: {h['contents']['kind']}, range {where(h['range'])}")
    for l in h["contents"]["value"].splitlines()[:3]:
        print("  |", l)
    print("  | ...", "the declaration in a kcontract block:", "```kcontract\nclass std.mem.tail-mask@1" in h["contents"]["value"])
    row = [i for i, l in enumerate(lines) if "m[r] = max" in l][0]
    h = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": row, "character": 5}})
    print("hover on 'm':", h["result"])

    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": "kcontract 1\ncontract {"}]})
    show_diagnostics("didChange (syntax error)", c.diagnostics(uri))
    r = c.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}})
    print("formatting (syntax error):", r["error"]["code"], r["error"]["message"])

    r = c.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    print("textDocument/definition:", r["error"]["code"], r["error"]["message"])
    r = c.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.kcontract"}, "position": {"line": 0, "character": 0}})
    print("hover on a closed document:", r["error"]["code"], r["error"]["message"])
    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    show_diagnostics("didClose", c.diagnostics(uri))
    print("shutdown:", c.request("shutdown")["result"])
    c.notify("exit", {})
    rc, err = c.finish()
    print("server exit:", rc, "stderr:", repr(err))


def before_init(kc):
    c = Client(kc)
    r = c.request("textDocument/hover", {"textDocument": {"uri": "file:///x.kcontract"}, "position": {"line": 0, "character": 0}})
    print("hover before initialize:", r["error"]["code"], r["error"]["message"])
    c.proc.stdin.write(b"Content-Length: 7\r\n\r\nnot js!")
    c.proc.stdin.flush()
    r = c.read()
    print("a body that is not JSON:", r["id"], r["error"]["code"], r["error"]["message"])
    c.notify("exit", {})
    rc, err = c.finish()
    print("exit without shutdown:", rc, "stderr:", repr(err))


def broken_framing(kc):
    c = Client(kc)
    c.proc.stdin.write(b"Content-Length: lots\r\n\r\n{}")
    rc, err = c.finish()
    print("broken framing:", rc, "stderr:", repr(err))


{"session": session, "before-init": before_init, "broken-framing": broken_framing}[sys.argv[2]](sys.argv[1])
