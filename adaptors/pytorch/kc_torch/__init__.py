"""kcontract's PyTorch adaptor as a package (docs/backends.md, "The PyTorch adaptor"):
wire (exec protocol v2's transport), target (the callable and the device), device (streams,
faults, allocator poison, resource counts, noise), v1 (a process per launch, .npy files),
v2 (one process per worker, shared buffers). The entry script is ../kc_torch.py."""
