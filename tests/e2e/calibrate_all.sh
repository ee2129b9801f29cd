# Three-state calibration of every standard class on the host (docs/calibration.md): each
# conforming kernel passes its contract, each violating one passes a plain allclose and is
# caught with its signature; every shipped class has a pair. CUDA pairs are SKIPPED here.
kc calibrate --all --backend host
