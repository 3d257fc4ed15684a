// weft::fft's helpers that need no transform library: sample frequencies and shifts.
#include <cstdint>
#include <vector>

#include "weft/error.hpp"
#include "weft/fft.hpp"
#include "weft/manipulation.hpp"

namespace weft::fft {

namespace {

// k / (d n) for each k, computed in double as NumPy does (then converted to dtype).
Array frequencies(const std::vector<std::int64_t>& k, std::int64_t n, double d, DType dtype, const Device& device,
                  const char* fn) {
  if (n < 1) throw InvalidArgument(std::string("fft::") + fn + ": n must be a positive integer, not " + std::to_string(n));
  if (dtype != DType::float32 && dtype != DType::float64) {
    throw DTypeError(std::string("fft::") + fn + ": dtype must be float32 or float64, not " + std::string(name(dtype)));
  }
  const double val = 1.0 / (static_cast<double>(n) * d);
  std::vector<double> f(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) f[i] = static_cast<double>(k[i]) * val;
  Array out = Array::from_host<double>(f, Shape{static_cast<std::int64_t>(f.size())}, device);
  return dtype == DType::float64 ? out : out.astype(dtype);
}

std::vector<int> all_axes_if_empty(const Array& x, const std::vector<int>& axes) {
  if (!axes.empty()) return axes;
  std::vector<int> all(x.ndim());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  return all;
}

Array shift(const Array& x, const std::vector<int>& axes, bool inverse, const char* fn) {
  const std::vector<int> ax = all_axes_if_empty(x, axes);
  if (ax.empty()) return x.copy();
  std::vector<std::int64_t> shifts;
  const auto nd = static_cast<int>(x.ndim());
  for (int a : ax) {
    if (a < -nd || a >= nd) {
      throw InvalidArgument(std::string("fft::") + fn + ": axis " + std::to_string(a) + " is out of range for " +
                            std::to_string(nd) + " dimensions");
    }
    const std::int64_t n = x.shape()[static_cast<std::size_t>(a < 0 ? a + nd : a)];
    shifts.push_back(inverse ? -(n / 2) : n / 2);
  }
  return roll(x, shifts, ax);
}

}  // namespace

Array fftfreq(std::int64_t n, double d, DType dtype, const Device& device) {
  std::vector<std::int64_t> k(static_cast<std::size_t>(n > 0 ? n : 0));
  const std::int64_t half = (n - 1) / 2 + 1;  // 0 .. half-1, then -(n/2) .. -1
  for (std::int64_t i = 0; i < n; ++i) k[static_cast<std::size_t>(i)] = i < half ? i : i - n;
  return frequencies(k, n, d, dtype, device, "fftfreq");
}

Array rfftfreq(std::int64_t n, double d, DType dtype, const Device& device) {
  std::vector<std::int64_t> k(static_cast<std::size_t>(n > 0 ? n / 2 + 1 : 0));
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::int64_t>(i);
  return frequencies(k, n, d, dtype, device, "rfftfreq");
}

Array fftshift(const Array& x, const std::vector<int>& axes) { return shift(x, axes, false, "fftshift"); }
Array ifftshift(const Array& x, const std::vector<int>& axes) { return shift(x, axes, true, "ifftshift"); }

}  // namespace weft::fft
