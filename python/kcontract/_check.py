"""kcontract.check: one `kcontract check` run, its JSON Lines read back as Result."""
import inspect
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

KERNEL_FILES = (".c", ".cc", ".cpp", ".cu", ".cl", ".so", ".kcexec", ".py")


class KcontractError(Exception):
    """kcontract could not check at all (exit 2: a contract, kernel or option error); the
    message is kcontract's own."""


def find_binary():
    """$KC_BINARY, else `kcontract` on PATH, else beside this package: PREFIX/bin/kcontract for
    PREFIX/share/kcontract/python/kcontract, or build/kcontract in a source tree."""
    if os.environ.get("KC_BINARY"):
        return os.environ["KC_BINARY"]
    found = shutil.which("kcontract")
    if found:
        return found
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ("../../../../bin/kcontract", "../../build/kcontract"):
        p = os.path.normpath(os.path.join(here, rel))
        if os.access(p, os.X_OK):
            return p
    raise KcontractError("no kcontract binary: set KC_BINARY, put kcontract on PATH, or install it (docs/install.md)")


@dataclass
class Case:
    """One case's result line (docs/checking.md, "JSON Lines")."""
    id: str
    verdict: str
    signatures: list
    reason: str
    dims: dict
    dtypes: dict
    worst: list
    repro: str
    raw: dict = field(repr=False)

    @classmethod
    def from_json(cls, j):
        return cls(j["case"], j["verdict"], j.get("signatures", []), j.get("reason", ""), j.get("dims", {}),
                   j.get("dtypes", {}), j.get("worst", []), j.get("repro", ""), j)


@dataclass
class Result:
    """A kernel's verdict: PASS when no case failed, errored, crashed or timed out and some case
    ran; `signatures` are the diagnosis's causes (the summary's column), `replay_lines` the
    commands that re-run each failing case."""
    target: str
    verdict: str
    cases: list
    signatures: list
    diagnosis: str
    output: str
    env: dict
    binary: str = "kcontract"

    @property
    def passed(self):
        return self.verdict == "PASS"

    def __bool__(self):
        return self.passed

    @property
    def failures(self):
        return [c for c in self.cases if c.verdict not in ("PASS", "SKIPPED")]

    @property
    def replay_lines(self):
        prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in sorted(self.env.items())) + shlex.quote(self.binary)
        return [prefix + c.repro[len("kcontract"):] for c in self.failures if c.repro.startswith("kcontract replay")]

    def explain(self, cases=3, cells=3):
        """What a failed assertion shows: the verdict and its causes, each failing case with its
        worst cells, and the command that replays it."""
        lines = [f"{self.target}: {self.verdict}" + (f" ({', '.join(self.signatures)})" if self.signatures else "")]
        if self.diagnosis:
            lines += ["  " + line for line in self.diagnosis.splitlines() if line.startswith(("diagnosis:", "    cause", "    also"))]
        for c in self.failures[:cases]:
            dims = " ".join(f"{k}={v}" for k, v in c.dims.items())
            lines.append(f"  {c.verdict} {c.id} {dims} {' '.join(c.dtypes.values())}: "
                         f"{', '.join(c.signatures) or c.reason or 'no signature'}")
            for w in c.worst[:cells]:
                lines.append(f"    {w['tensor']}{w['index']}: got {w['got']}, expected {w['expected']}"
                             f" (tolerance {w['tolerance']}){' never written' if w.get('unwritten') else ''}")
        if len(self.failures) > cases:
            lines.append(f"  ... and {len(self.failures) - cases} more failing cases")
        for r in self.replay_lines[:1]:
            lines.append("  replay: " + r)
        return "\n".join(lines)


def _target(obj):
    """A callable or class as FILE.py:NAME for the adaptor; a path or FILE:ENTRY string as is."""
    if isinstance(obj, (str, os.PathLike)):
        return os.fspath(obj)
    name = getattr(obj, "__qualname__", "")
    source = inspect.getsourcefile(obj)
    if not source or not name or "." in name or "<" in name:
        raise KcontractError(f"kcontract.check: {obj!r} must be a function or class defined at the top level of a .py "
                             f"file (the adaptor imports it from there)")
    return f"{os.path.abspath(source)}:{name}"


def check(target, op=None, contract=None, backend=None, device="cpu", dtype=None, dims=None, timeout=120,
          binary=None, args=()):
    """Checks `target` (a torch function or nn.Module class, or a kernel file path, optionally
    PATH:ENTRY) against the standard op `op` or the contract file `contract`; `dims` narrows the
    cases ({"R": "1..64", "H": 4100}). A callable runs on the exec backend in the PyTorch
    adaptor on `device` (cpu, cuda, auto), with this interpreter."""
    if (op is None) == (contract is None):
        raise KcontractError("kcontract.check: give op= or contract=, one of them")
    impl = _target(target)
    python = not isinstance(target, (str, os.PathLike)) or impl.split(":")[0].endswith(".py")
    env = {"KC_TORCH_DEVICE": device, "KC_PYTHON": sys.executable} if python else {}
    binary = binary or find_binary()
    cmd = [binary, "check"]
    cmd += ["--op", op] if op else [os.fspath(contract)]
    cmd += ["--impl", impl, "--timeout", str(timeout)]
    if python or impl.split(":")[0].endswith(".kcexec"):
        backend = "exec"  # the adaptor's process: the only backend that runs them
    if backend:
        cmd += ["--backend", backend]
    if dtype:
        cmd += ["--dtype", dtype]
    if dims:
        cmd += ["--dims", ",".join(f"{k}={v}" for k, v in dims.items())]
    cmd += list(args)
    with tempfile.TemporaryDirectory(prefix="kcontract-py-") as tmp:
        out = os.path.join(tmp, "results.jsonl")
        run = subprocess.run(cmd + ["--format", "jsonl", "--out", out], capture_output=True, text=True,
                             env={**os.environ, **env})
        if run.returncode not in (0, 1):
            raise KcontractError(f"kcontract check exited {run.returncode}:\n{run.stderr.strip() or run.stdout.strip()}")
        cases = []
        if os.path.exists(out):
            with open(out) as f:
                cases = [Case.from_json(json.loads(line)) for line in f if line.startswith("{")]
    bad = [c for c in cases if c.verdict not in ("PASS", "SKIPPED")]
    ran = [c for c in cases if c.verdict != "SKIPPED"]
    verdicts = [c.verdict for c in bad]
    verdict = ("FAIL" if "FAIL" in verdicts else verdicts[0]) if bad else ("PASS" if ran else "SKIPPED")
    diagnosis = "\n".join(line for line in run.stdout.splitlines() if line.startswith(("diagnosis:", "    ")))
    # The diagnosis's line: "diagnosis: KERNEL: cause, also, explains N of M failing cases", or
    # "diagnosis: KERNEL: unclassified (no cause has evidence ...)": its names, never the cases'
    # own matches, which it may have refused.
    signatures = []
    for line in run.stdout.splitlines():
        if line.startswith("diagnosis: ") and ", explains" in line:
            signatures += [s.strip() for s in line.split(", explains")[0].rsplit(": ", 1)[1].split(",")]
        elif line.startswith("diagnosis: ") and ": unclassified" in line:
            signatures.append("unclassified")
    return Result(impl, verdict, cases, signatures, diagnosis, run.stdout, env, binary)
