"""GEMM in Triton, checked against std.op.matmul through the PyTorch adaptor
(examples/suite_triton.yaml, on a GPU).

matmul: c = a @ b in 64 x 64 tiles, K in steps of 32, every load masked, offsets in 64
bits, an f32 accumulator, and for f32 operands `input_precision="ieee"`: the products of
f32 operands in f32.

matmul_tf32: the same kernel without `input_precision`, as the Triton tutorial writes it:
tl.dot's default for f32 operands is TF32 on tensor cores (10 bits of mantissa kept of 23),
a relative error near 1e-3, inside allclose's 1e-2; std.op.matmul's f32 cases name it.
bf16 and f16 operands are unaffected."""
import torch
import triton
import triton.language as tl


@triton.jit
def _matmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn, IEEE: tl.constexpr,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    n_tiles = tl.cdiv(N, BN)
    rm = (pid // n_tiles) * BM + tl.arange(0, BM).to(tl.int64)
    rn = (pid % n_tiles) * BN + tl.arange(0, BN).to(tl.int64)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK).to(tl.int64)
        a_tile = tl.load(a + rm[:, None] * sam + rk[None, :] * sak, mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b_tile = tl.load(b + rk[:, None] * sbk + rn[None, :] * sbn, mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        if IEEE:
            acc = tl.dot(a_tile, b_tile, acc, input_precision="ieee")
        else:
            acc = tl.dot(a_tile, b_tile, acc)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c + rm[:, None] * scm + rn[None, :] * scn, acc.to(c.dtype.element_ty), mask=mask)


def _launch(a, b, ieee):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    if M and N:
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
        _matmul[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                      IEEE=ieee and a.dtype == torch.float32, BM=64, BN=64, BK=32)
    return c


def matmul(a, b):
    return _launch(a, b, True)


def matmul_tf32(a, b):
    return _launch(a, b, False)
