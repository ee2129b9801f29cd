"""A KernelBench-style candidate as such files are written: an inline CUDA extension
(torch.utils.cpp_extension.load_inline), launched with <<<blocks, threads>>> on the default
stream, wrapped in ModelNew. Checked as it is, on a GPU:

    kcontract check --op relu --impl examples/kernelbench/relu_inline.py --backend exec --dtype f32
    kcontract check --op relu --impl examples/kernelbench/relu_inline.py:ModelNewFmax --backend exec --dtype f32

ModelNew keeps NaN (v > 0 ? v : (v != v ? v : 0)): PASS. ModelNewFmax uses fmaxf(v, 0), which
returns 0 for a NaN input: FAIL, nan-swallowed. Both read x.contiguous(), so strided views
are honoured, and write a fresh torch::empty_like output."""
import torch
from torch.utils.cpp_extension import load_inline

_CUDA = r"""
#include <torch/extension.h>

__global__ void relu_keep_nan(const float* x, float* y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) { float v = x[i]; y[i] = v > 0.f ? v : (v != v ? v : 0.f); }
}

__global__ void relu_fmax(const float* x, float* y, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.f);
}

torch::Tensor relu_cuda(torch::Tensor x, bool fmax) {
  auto xc = x.contiguous();
  auto y = torch::empty_like(xc);
  int64_t n = xc.numel();
  if (n == 0) return y;
  int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (fmax) relu_fmax<<<blocks, threads>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);
  else relu_keep_nan<<<blocks, threads>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
"""
_CPP = "torch::Tensor relu_cuda(torch::Tensor x, bool fmax);"
_ext = load_inline(name="kc_example_relu_inline", cpp_sources=_CPP, cuda_sources=_CUDA, functions=["relu_cuda"])


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return _ext.relu_cuda(x, False)


class ModelNewFmax(torch.nn.Module):
    def forward(self, x):
        return _ext.relu_cuda(x, True)


def get_inputs():
    return [torch.randn(16, 16384, device="cuda")]


def get_init_inputs():
    return []
