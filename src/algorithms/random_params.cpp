// weft::random::Generator with array-valued parameters: the parameters are broadcast to the
// result's shape and cast to the kernel's type (one fused copy each, skipped when they already
// are that), checked by reductions as the scalar forms check their numbers, then one generated
// elementwise kernel computes element i from its Philox block and words
// (src/kernels/cl/random_params.cl) with its own parameters. The blocks are taken from the
// generator exactly as the scalar forms take them, so the stream is the same.
#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>

#include "array/array_queue.hpp"
#include "core/lifetime.hpp"
#include "embedded/weft_embedded.hpp"
#include "weft/elementwise.hpp"
#include "weft/error.hpp"
#include "weft/random.hpp"

namespace weft::random {

namespace {

std::string who_of(const char* who) { return std::string("Generator.") + who; }

// The preamble of the parameter kernels: random.cl (and random_f64.cl) with their helpers.
std::string preamble(bool fp64) {
  std::string s = kernel_source(fp64) + "\n" + std::string(embedded::random_params_cl);
  if (fp64) s += "\n" + std::string(embedded::random_params_f64_cl);
  return s;
}

// The generated kernels, made once per signature: index [distribution * 2 + (float64)] for the
// real ones (uniform, normal, exponential), [dtype * 2 + (uint64 parameters)] for integers.
enum Real { kUniform = 0, kNormal = 1, kExponential = 2 };

ElementwiseKernel& real_kernel(Real which, bool f64) {
  static std::array<std::once_flag, 6> once;
  static detail::Immortal<std::array<std::unique_ptr<ElementwiseKernel>, 6>> made;
  const std::size_t k = static_cast<std::size_t>(which) * 2 + (f64 ? 1 : 0);
  std::call_once(once[k], [&] {
    const std::string T = f64 ? "double" : "float";
    const std::string fn = std::string(which == kUniform ? "weft_uniform" : which == kNormal ? "weft_normal"
                                                                                            : "weft_exponential") +
                           (f64 ? "_f64_at" : "_f32_at");
    const std::string head = T + " *out, ulong seed, ulong base_lo, ulong base_hi, const " + T + " *p0";
    const bool two = which != kExponential;
    (*made)[k] = std::make_unique<ElementwiseKernel>(
        head + (two ? ", const " + T + " *p1" : std::string()),
        "out[i] = " + fn + "(seed, base_lo, base_hi, (ulong)i, p0[i]" + (two ? ", p1[i])" : ")"),
        "weft_random_params", preamble(f64));
  });
  return *(*made)[k];
}

ElementwiseKernel& integer_kernel(DType dtype, bool unsigned_params) {
  constexpr std::size_t count = std::size(all_dtypes) * 2;
  static std::array<std::once_flag, count> once;
  static detail::Immortal<std::array<std::unique_ptr<ElementwiseKernel>, count>> made;
  const std::size_t k = static_cast<std::size_t>(dtype) * 2 + (unsigned_params ? 1 : 0);
  std::call_once(once[k], [&] {
    const std::string T = detail::kernel_type(dtype);
    const std::string P = unsigned_params ? "ulong" : "long";
    const std::string fn = size_of(dtype) == 8 ? "weft_integers_64_at" : "weft_integers_narrow_at";
    (*made)[k] = std::make_unique<ElementwiseKernel>(
        T + " *out, ulong seed, ulong base_lo, ulong base_hi, const " + P + " *low, const " + P +
            " *high, ulong below",
        "out[i] = (" + T + ")" + fn + "(seed, base_lo, base_hi, (ulong)i, (ulong)low[i], (ulong)high[i] - below)",
        "weft_random_integers_params", preamble(false));
  });
  return *(*made)[k];
}

// p broadcast to shape in dtype t, contiguous from its buffer's start (p itself when it is).
Array parameter(const Array& p, const Shape& shape, DType t, const Device& dev, const char* what, const char* who) {
  if (!p) throw InvalidArgument(who_of(who) + ": " + what + " is an empty handle");
  if (!(p.device() == dev)) {
    throw InvalidArgument(who_of(who) + ": " + what + " is on " + p.device().selector() + ", the result on " +
                          dev.selector());
  }
  if (is_complex(p.dtype())) {
    throw InvalidArgument(who_of(who) + ": " + what + " must be real, not " + std::string(name(p.dtype())));
  }
  Array b;
  try {
    b = p.broadcast_to(shape);
  } catch (const InvalidArgument&) {
    throw InvalidArgument(who_of(who) + ": " + what + " of shape " + to_string(p.shape()) +
                          " does not broadcast to the size " + to_string(shape));
  }
  if (p.dtype() == t && p.shape() == shape && p.is_contiguous() && p.offset() == 0) return p;
  return eval(astype(Expr(b), t));
}

Device device_of(const Array& p, const char* what, const char* who) {
  if (!p) throw InvalidArgument(who_of(who) + ": " + what + " is an empty handle");
  return p.device();
}

std::uint64_t elements(const Shape& shape) { return static_cast<std::uint64_t>(shape.size()); }

void check_float(DType dtype, const Device& device, const char* who) {
  if (dtype != DType::float32 && dtype != DType::float64) {
    throw InvalidArgument(who_of(who) + ": dtype must be float32 or float64, not " + std::string(name(dtype)));
  }
  if (dtype == DType::float64 && !device.info().fp64) {
    throw Unsupported(who_of(who) + ": " + device.selector() + " has no double precision; ask for dtype float32");
  }
}

// Every element of e is true (e: a bool expression over n elements).
bool all_of(const Expr& e, std::uint64_t n) {
  return weft::sum(astype(e, DType::int64)).get() == static_cast<double>(n);
}

void check_finite(const Array& x, std::uint64_t n, const char* what, const char* who) {
  if (!all_of(isfinite(Expr(x)), n)) throw InvalidArgument(who_of(who) + ": " + what + " must be finite everywhere");
}

void check_scale(const Array& scale, std::uint64_t n, const char* who) {
  check_finite(scale, n, "scale", who);
  if (weft::min(Expr(scale)).get() < 0) throw InvalidArgument(who_of(who) + ": scale must be non-negative everywhere");
}

std::array<double, 2> dtype_limits(DType t) {
  switch (t) {
    case DType::bool_: return {0, 1};
    case DType::int8: return {-128.0, 127.0};
    case DType::int16: return {-32768.0, 32767.0};
    case DType::int32: return {-2147483648.0, 2147483647.0};
    case DType::int64: return {-9223372036854775808.0, 9223372036854775807.0};
    case DType::uint8: return {0, 255.0};
    case DType::uint16: return {0, 65535.0};
    case DType::uint32: return {0, 4294967295.0};
    case DType::uint64: return {0, 18446744073709551615.0};
    default:
      throw InvalidArgument("Generator.integers: dtype must be an integer type or bool, not " +
                            std::string(name(t)));
  }
}

}  // namespace

Array Generator::uniform(const Array& low, const Array& high, const Shape& shape, DType dtype) {
  const Device dev = device_of(low, "low", "uniform");
  check_float(dtype, dev, "uniform");
  const Array lo = parameter(low, shape, dtype, dev, "low", "uniform");
  const Array hi = parameter(high, shape, dtype, dev, "high", "uniform");
  const std::uint64_t n = elements(shape);
  Array out = Array::empty(shape, dtype, dev);
  if (n == 0) return out;
  if (!all_of(isfinite(Expr(hi) - Expr(lo)), n)) {
    throw InvalidArgument("Generator.uniform: low, high and high - low must be finite in " +
                          std::string(name(dtype)) + " everywhere");
  }
  const bool f64 = dtype == DType::float64;
  const auto base = take(n / (f64 ? 2 : 4) + (n % (f64 ? 2 : 4) != 0));
  const detail::RuntimeArg args[] = {
      detail::RuntimeArg::of(out.buffer()), detail::RuntimeArg::of_value(seed_),
      detail::RuntimeArg::of_value(base[0]), detail::RuntimeArg::of_value(base[1]),
      detail::RuntimeArg::of(lo.buffer()),  detail::RuntimeArg::of(hi.buffer())};
  real_kernel(kUniform, f64).run(detail::array_queue(dev), static_cast<std::size_t>(n), args);
  detail::count_launch(dev);
  out.mark_written();
  return out;
}

Array Generator::normal(const Array& mean, const Array& scale, const Shape& shape, DType dtype) {
  const Device dev = device_of(mean, "loc", "normal");
  check_float(dtype, dev, "normal");
  const Array m = parameter(mean, shape, dtype, dev, "loc", "normal");
  const Array s = parameter(scale, shape, dtype, dev, "scale", "normal");
  const std::uint64_t n = elements(shape);
  Array out = Array::empty(shape, dtype, dev);
  if (n == 0) return out;
  check_finite(m, n, "loc", "normal");
  check_scale(s, n, "normal");
  const bool f64 = dtype == DType::float64;
  const auto base = take(n / (f64 ? 2 : 4) + (n % (f64 ? 2 : 4) != 0));
  const detail::RuntimeArg args[] = {
      detail::RuntimeArg::of(out.buffer()), detail::RuntimeArg::of_value(seed_),
      detail::RuntimeArg::of_value(base[0]), detail::RuntimeArg::of_value(base[1]),
      detail::RuntimeArg::of(m.buffer()),   detail::RuntimeArg::of(s.buffer())};
  real_kernel(kNormal, f64).run(detail::array_queue(dev), static_cast<std::size_t>(n), args);
  detail::count_launch(dev);
  out.mark_written();
  return out;
}

Array Generator::exponential(const Array& scale, const Shape& shape, DType dtype) {
  const Device dev = device_of(scale, "scale", "exponential");
  check_float(dtype, dev, "exponential");
  const Array s = parameter(scale, shape, dtype, dev, "scale", "exponential");
  const std::uint64_t n = elements(shape);
  Array out = Array::empty(shape, dtype, dev);
  if (n == 0) return out;
  check_scale(s, n, "exponential");
  const bool f64 = dtype == DType::float64;
  const auto base = take(n / (f64 ? 2 : 4) + (n % (f64 ? 2 : 4) != 0));
  const detail::RuntimeArg args[] = {detail::RuntimeArg::of(out.buffer()), detail::RuntimeArg::of_value(seed_),
                                     detail::RuntimeArg::of_value(base[0]), detail::RuntimeArg::of_value(base[1]),
                                     detail::RuntimeArg::of(s.buffer())};
  real_kernel(kExponential, f64).run(detail::array_queue(dev), static_cast<std::size_t>(n), args);
  detail::count_launch(dev);
  out.mark_written();
  return out;
}

Array Generator::integers(const Array& low, const Array& high, const Shape& shape, DType dtype, bool endpoint) {
  const Device dev = device_of(low, "low", "integers");
  const auto [dmin, dmax] = dtype_limits(dtype);
  for (const Array* p : {&low, &high}) {
    if (*p && (is_floating(p->dtype()) || is_complex(p->dtype()))) {
      throw InvalidArgument("Generator.integers: low and high must be integer or bool arrays, not " +
                            std::string(name(p->dtype())));
    }
  }
  // Parameters as int64, or as uint64 for uint64 results (whose bounds reach 2^64 - 1).
  const bool u = dtype == DType::uint64;
  const DType pt = u ? DType::uint64 : DType::int64;
  for (const Array* p : {&low, &high}) {
    if (*p && p->size() > 0) {
      if (u && is_signed_integer(p->dtype()) && weft::min(Expr(*p)).get() < 0) {
        throw InvalidArgument("Generator.integers: low and high must be non-negative for uint64");
      }
      if (!u && p->dtype() == DType::uint64 && weft::max(Expr(*p)).get() >= 9223372036854775808.0) {
        throw InvalidArgument("Generator.integers: bounds of 2^63 and above are for dtype uint64 only");
      }
    }
  }
  const Array lo = parameter(low, shape, pt, dev, "low", "integers");
  const Array hi = parameter(high, shape, pt, dev, "high", "integers");
  const std::uint64_t n = elements(shape);
  Array out = Array::empty(shape, dtype, dev);
  if (n == 0) return out;
  const std::string type(name(dtype));
  const double top = endpoint ? dmax : dmax + 1;
  if (weft::min(Expr(lo)).get() < dmin || weft::max(Expr(lo)).get() > dmax) {
    throw InvalidArgument("Generator.integers: low is out of bounds for " + type);
  }
  if (weft::min(Expr(hi)).get() < (endpoint ? dmin : dmin + 1) || weft::max(Expr(hi)).get() > top) {
    throw InvalidArgument("Generator.integers: high is out of bounds for " + type);
  }
  if (!all_of(endpoint ? Expr(hi) >= Expr(lo) : Expr(hi) > Expr(lo), n)) {
    throw InvalidArgument(std::string("Generator.integers: ") + (endpoint ? "low > high" : "low >= high") +
                          " somewhere (the range is empty)");
  }
  const std::uint64_t per_block = size_of(dtype) == 8 ? 1 : 2;
  const auto base = take(n / per_block + (n % per_block != 0));
  const std::uint64_t below = endpoint ? 0 : 1;
  const detail::RuntimeArg args[] = {
      detail::RuntimeArg::of(out.buffer()),  detail::RuntimeArg::of_value(seed_),
      detail::RuntimeArg::of_value(base[0]), detail::RuntimeArg::of_value(base[1]),
      detail::RuntimeArg::of(lo.buffer()),   detail::RuntimeArg::of(hi.buffer()),
      detail::RuntimeArg::of_value(below)};
  integer_kernel(dtype, u).run(detail::array_queue(dev), static_cast<std::size_t>(n), args);
  detail::count_launch(dev);
  out.mark_written();
  return out;
}

}  // namespace weft::random
