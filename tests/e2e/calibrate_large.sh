# The calibration pairs that e2e/calibrate_all skips under --max-memory 64M, at the default
# limit: the softmax ops' pairs (a kernel that never writes rows past 65,535 is caught only
# by the grid-rows cases) and the strides pairs (a kernel that loads rows from addresses
# rounded down is named ignores-strides only on the offset rows of 65,536 cells), and
# group_norm's pair, whose plain-allclose case (2^19 cells a group: the interleaved grouping
# passes allclose only once sampling noise is that small) takes 88 MiB.
kc calibrate std.mem.strides@1 softmax group_norm --backend host
