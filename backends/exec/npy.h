#pragma once
// Reading and writing NumPy .npy files (format versions 1.0-3.0, C order), the exchange
// format of the exec backend (docs/backends.md, "The exec protocol"). Only what the
// protocol needs: little-endian fixed-size dtypes ('<f4', '|u1', ...) and a shape.
#include <cstdint>
#include <string>
#include <vector>

namespace kc::backend::npy {

struct Array {
  std::string descr;            // NumPy's dtype string: '<f4', '<u2', '|b1'
  std::vector<int64_t> shape;   // () for a scalar
  std::vector<uint8_t> data;    // C order, numel * itemsize bytes
};

// The .npy dtype of a kcontract ABI dtype (enum kc_dtype). bf16 and the f8 formats have no
// NumPy dtype: their raw bits go as '<u2' / '|u1' (the manifest's `dtype` says what they are).
std::string descrOf(int32_t kcDtype);
// kcontract's name of an ABI dtype: f32, bf16, i64, ...
std::string nameOf(int32_t kcDtype);

void write(const std::string& path, const Array& a);  // throws std::runtime_error
Array read(const std::string& path);                  // throws std::runtime_error

}  // namespace kc::backend::npy
