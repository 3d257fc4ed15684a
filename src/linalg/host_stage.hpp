// LAPACK's side of weft::linalg: a stack of matrices read to the host in the dtype LAPACK
// computes in, each matrix turned column-major for it, and results made arrays on the input's
// device again.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "linalg/libraries.hpp"
#include "weft/array.hpp"
#include "weft/linalg.hpp"

namespace weft::detail::la {

/// The dtype a linalg routine computes a in: float32, complex64 and complex128 stay, float64
/// and every integer or bool dtype become float64 (NumPy's rule); float16 is refused naming fn.
DType compute_dtype(const Array& a, const char* fn);

/// Calls body(T{}) with T the C++ type LAPACK computes dtype t in (float, double,
/// std::complex<float>, std::complex<double>; t from compute_dtype).
template <class Body>
decltype(auto) dispatch(DType t, Body&& body) {
  switch (t) {
    case DType::float32: return body(float{});
    case DType::complex64: return body(std::complex<float>{});
    case DType::complex128: return body(std::complex<double>{});
    default: return body(double{});
  }
}

/// A stack of matrices on the host: batch dims, then rows x cols, row-major, contiguous.
template <class T>
struct HostStack {
  std::vector<std::int64_t> batch;
  std::int64_t rows = 0, cols = 0;
  std::int64_t count = 0;  // matrices
  std::vector<T> data;
  T* matrix(std::int64_t i) { return data.data() + i * rows * cols; }
};

/// a (..., M, N) read in dtype T; checks ndim >= 2 (and M == N when square), naming fn.
template <class T>
HostStack<T> read_stack(const Array& a, const char* fn, bool square);

/// Transposes a rows x cols row-major matrix into out (cols x rows row-major, which is the
/// matrix column-major) and back.
template <class T>
void transpose_into(const T* in, std::int64_t rows, std::int64_t cols, T* out) {
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) out[j * rows + i] = in[i * cols + j];
}

/// An array of the values on device: batch + tail dims.
template <class T>
Array make_array(const std::vector<T>& values, const std::vector<std::int64_t>& batch,
                 std::initializer_list<std::int64_t> tail, const Device& device);

/// A LAPACK workspace query's answer (the first element of work) as a size.
template <class T>
int work_size(T w) {
  return std::max(1, static_cast<int>(std::real(w)));
}

inline int to_int(std::int64_t v) { return static_cast<int>(v); }

}  // namespace weft::detail::la
