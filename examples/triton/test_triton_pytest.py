"""Triton kernels checked from pytest (docs/install.md, "Python"): the `kcontract` fixture runs
the Triton softmax beside this file against std.op.softmax through its exec spec, and shows
that the twin that loads masked lanes as 0 is caught. Needs a CUDA device and Triton (skipped
otherwise); on the GPU machine, from the repository root:

    PYTHONPATH=python KC_BINARY=bundle/kcontract python3 -m pytest -p kcontract.pytest_plugin examples/triton
"""
import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))


def test_triton_softmax_conforms(kcontract):
    kcontract.conforms(os.path.join(HERE, "softmax.kcexec"), op="softmax", dtype="f32", timeout=300)


def test_triton_softmax_pad_zero_is_caught(kcontract):
    r = kcontract.check(os.path.join(HERE, "softmax_pad_zero.kcexec"), op="softmax", dtype="f32", timeout=300)
    assert r.verdict == "FAIL", r.explain()
    assert r.replay_lines, r.explain()
    print(r.explain())
