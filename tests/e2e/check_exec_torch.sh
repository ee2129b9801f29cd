# The PyTorch adaptor (adaptors/pytorch/kc_torch.py) through the exec backend, on the CPU
# with Debian's python3-torch: torch.softmax, torch.relu and a KernelBench-style ModelNew
# PASS; softmax without max subtraction FAILs with overflow, relu via torch.where with
# nan-swallowed. Small claims: the adaptor starts Python (and imports torch) per launch.
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
kc check ../../examples/suite_torch.yaml --expect --timeout 300 | sed -n '/^kernel /,$p'
