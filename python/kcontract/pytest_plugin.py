"""The pytest plugin (docs/install.md, "Python"): a `kcontract` fixture whose `conforms()`
fails the test with kcontract's own account of the failure (verdict, cause, worst cells,
replay command). Options: --kcontract-backend (for kernel files: host, cuda, opencl, ptx;
default: as kcontract picks from the file), --kcontract-device (where torch callables run:
cpu, cuda, auto; default cpu), --kcontract-binary."""
import pytest

from . import check as _check


def pytest_addoption(parser):
    g = parser.getgroup("kcontract")
    g.addoption("--kcontract-backend", default=None, help="backend for kernel files (host, cuda, opencl, ptx)")
    g.addoption("--kcontract-device", default="cpu", help="where torch callables run: cpu, cuda or auto (default cpu)")
    g.addoption("--kcontract-binary", default=None, help="the kcontract binary (default: $KC_BINARY, PATH, beside the package)")


class Checker:
    def __init__(self, config):
        self.backend = config.getoption("--kcontract-backend")
        self.device = config.getoption("--kcontract-device")
        self.binary = config.getoption("--kcontract-binary")

    def check(self, target, **kw):
        kw.setdefault("device", self.device)
        if self.backend and isinstance(target, str) and not target.split(":")[0].endswith(".py"):
            kw.setdefault("backend", self.backend)
        kw.setdefault("binary", self.binary)
        return _check(target, **kw)

    def conforms(self, target, **kw):
        """Checks and fails the test (an assertion) unless the verdict is PASS."""
        r = self.check(target, **kw)
        if not r.passed:
            pytest.fail(r.explain(), pytrace=False)
        return r


@pytest.fixture
def kcontract(request):
    return Checker(request.config)
