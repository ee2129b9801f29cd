# Three-state calibration of every standard class on the host (docs/calibration.md): each
# conforming kernel passes its contract, each violating one passes a plain allclose and is
# caught with its signature; every shipped class has a pair. CUDA pairs are SKIPPED here.
# Cases over 64 MiB are SKIPPED too (--max-memory; the grid-rows cases of 2 million cells
# among them, three quarters of the time at the default limit): a pair whose violating kernel
# is caught, or named, only there is skipped, and e2e/calibrate_large runs it in full.
kc calibrate --all --backend host --max-memory 64M
