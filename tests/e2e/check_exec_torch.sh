# The PyTorch adaptor (adaptors/pytorch/kc_torch.py) through the exec backend, on the CPU
# with Debian's python3-torch: torch.softmax, torch.relu and a KernelBench-style ModelNew
# PASS; softmax without max subtraction FAILs with overflow, relu via torch.where with
# nan-swallowed. The specs speak exec protocol v2: one adaptor per worker, so the claims
# are wide (90 cases) and the test stays fast.
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
kc check ../../examples/suite_torch.yaml --expect --timeout 300 | sed -n '/^kernel /,$p'
