// Staging of linalg's operands on the host (host_stage.hpp).
#include "linalg/host_stage.hpp"

#include <climits>
#include <complex>
#include <string>

#include "weft/error.hpp"

namespace weft::detail::la {

DType compute_dtype(const Array& a, const char* fn) {
  if (a.dtype() == DType::float32 || is_complex(a.dtype())) return a.dtype();
  if (a.dtype() == DType::float16) {
    throw DTypeError(std::string(fn) + ": array type float16 is unsupported in linalg; use float32 or float64");
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
  constexpr DType t = dtype_of<T>;
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
  constexpr DType t = dtype_of<T>;
  return Array::from_host_bytes(values.data(), values.size(), t, Shape(dims), device);
}

template HostStack<float> read_stack<float>(const Array&, const char*, bool);
template Array make_array<float>(const std::vector<float>&, const std::vector<std::int64_t>&,
                                 std::initializer_list<std::int64_t>, const Device&);
template HostStack<double> read_stack<double>(const Array&, const char*, bool);
template Array make_array<double>(const std::vector<double>&, const std::vector<std::int64_t>&,
                                 std::initializer_list<std::int64_t>, const Device&);
template HostStack<std::complex<float>> read_stack<std::complex<float>>(const Array&, const char*, bool);
template Array make_array<std::complex<float>>(const std::vector<std::complex<float>>&, const std::vector<std::int64_t>&,
                                 std::initializer_list<std::int64_t>, const Device&);
template HostStack<std::complex<double>> read_stack<std::complex<double>>(const Array&, const char*, bool);
template Array make_array<std::complex<double>>(const std::vector<std::complex<double>>&, const std::vector<std::int64_t>&,
                                 std::initializer_list<std::int64_t>, const Device&);

}  // namespace weft::detail::la
