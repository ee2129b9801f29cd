"""kcontract from Python (docs/install.md, "Python"): check a torch function, a KernelBench
ModelNew or a kernel file against a contract with the kcontract binary, and read the verdicts.

    import kcontract
    r = kcontract.check(my_softmax, op="softmax", dtype="f32")
    assert r.passed, r.explain()

A Python callable runs in kcontract's persistent PyTorch adaptor (exec protocol v2) on
`device`; a kernel file (.c, .cu, .cl, .kcexec) runs on `backend`. The binary is $KC_BINARY,
else `kcontract` on PATH, else the one beside this package (an install prefix or a build
tree)."""
from ._check import Case, KcontractError, Result, check, find_binary

__all__ = ["Case", "KcontractError", "Result", "check", "find_binary"]
