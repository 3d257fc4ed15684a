// Staging of linalg's operands on the host (host_stage.hpp).
#include "linalg/host_stage.hpp"

#include <climits>
#include <string>

#include "weft/error.hpp"

namespace weft::detail::la {

DType compute_dtype(const Array& a, const char* fn) {
  if (a.dtype() == DType::float32) return DType::float32;
  if (a.dtype() == DType::float16) {
    throw DTypeError(std::string(fn) + ": array type float16 is unsupported in linalg; use float32 or float64");
  }
  if (is_complex(a.dtype())) {
    // Casting would drop the imaginary parts: a wrong answer. LAPACK's c/z routines are not
    // wired yet.
    throw DTypeError(std::string(fn) + ": array type " + std::string(name(a.dtype())) +
                     " is not supported by weft's LAPACK path yet; it takes real arrays (float32, float64, "
                     "integers, bool)");
  }
  return DType::float64;
}

template <class T>
HostStack<T> read_stack(const Array& a, const char* fn, bool square) {
  if (a.ndim() < 2) {
    throw LinAlgError(std::string(fn) + ": " + std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
  HostStack<T> s;
  s.batch.assign(a.shape().dims().begin(), a.shape().dims().end() - 2);
  s.rows = a.shape()[a.ndim() - 2];
  s.cols = a.shape()[a.ndim() - 1];
  if (square && s.rows != s.cols) {
    throw LinAlgError(std::string(fn) + ": Last 2 dimensions of the array must be square (shape " +
                      to_string(a.shape()) + ")");
  }
  if (s.rows > INT_MAX / std::max<std::int64_t>(s.cols, 1)) {
    throw InvalidArgument(std::string(fn) + ": a matrix of " + to_string(a.shape()) +
                          " exceeds LAPACK's 32-bit sizes");
  }
  s.count = 1;
  for (const std::int64_t d : s.batch) s.count *= d;
  constexpr DType t = sizeof(T) == 4 ? DType::float32 : DType::float64;
  const Array x = a.dtype() == t ? a : a.astype(t);
  s.data.resize(static_cast<std::size_t>(x.size()));
  if (x.size() > 0) x.to_host_bytes(s.data.data(), t);
  return s;
}

template <class T>
Array make_array(const std::vector<T>& values, const std::vector<std::int64_t>& batch,
                 std::initializer_list<std::int64_t> tail, const Device& device) {
  std::vector<std::int64_t> dims = batch;
  dims.insert(dims.end(), tail);
  constexpr DType t = sizeof(T) == 4 ? DType::float32 : DType::float64;
  return Array::from_host_bytes(values.data(), values.size(), t, Shape(dims), device);
}

template <>
const LapackFns<float>& lapack_fns<float>() {
  return host_lapack().s;
}
template <>
const LapackFns<double>& lapack_fns<double>() {
  return host_lapack().d;
}

template HostStack<float> read_stack<float>(const Array&, const char*, bool);
template HostStack<double> read_stack<double>(const Array&, const char*, bool);
template Array make_array<float>(const std::vector<float>&, const std::vector<std::int64_t>&,
                                 std::initializer_list<std::int64_t>, const Device&);
template Array make_array<double>(const std::vector<double>&, const std::vector<std::int64_t>&,
                                  std::initializer_list<std::int64_t>, const Device&);

}  // namespace weft::detail::la
