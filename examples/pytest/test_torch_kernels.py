"""kcontract from pytest (docs/install.md, "Python"): the `kcontract` fixture checks torch
functions against the standard ops' contracts. One of the two is wrong on purpose:
softmax_no_max overflows for large inputs, so its test fails with kcontract's account (the
signature, the worst cells, the replay command).

    PYTHONPATH=python python3 -m pytest -p kcontract.pytest_plugin examples/pytest
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pytorch"))

from torch_kernels import softmax, softmax_no_max  # noqa: E402


def test_softmax_conforms(kcontract):
    kcontract.conforms(softmax, op="softmax", dtype="f32")


def test_softmax_no_max_conforms(kcontract):
    kcontract.conforms(softmax_no_max, op="softmax", dtype="f32")
