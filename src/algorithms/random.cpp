// weft::random::Generator: checks a request, takes its Philox blocks from the generator's
// counter and launches one kernel of src/kernels/cl/random.cl, one work-item a block, on the
// array queue of the device. The layout of the stream (which block and word an element comes
// from) is documented in include/weft/random.hpp; the kernels hold the arithmetic.
#include "weft/random.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "array/array_queue.hpp"
#include "core/lifetime.hpp"
#include "embedded/weft_embedded.hpp"
#include "runtime/device_local.hpp"
#include "weft/error.hpp"
#include "weft/kernel_args.hpp"
#include "weft/program.hpp"

namespace weft::random {

namespace {

__extension__ typedef __int128 Wide;  // bounds of every int64 and uint64 range, exactly

}  // namespace

const std::string& kernel_source(bool fp64) {
  static const std::string f32(embedded::random_cl);
  static const std::string f64 = f32 + "\n" + std::string(embedded::random_f64_cl);
  return fp64 ? f64 : f32;
}

namespace {

// The program and its kernels on one device, built once. The float64 kernels are in it only
// where the device has double precision.
struct Kernels {
  explicit Kernels(const Device& d)
      : fp64(d.info().fp64),
        program(Program::build(d, kernel_source(fp64))),
        raw(program.kernel("weft_random_raw")),
        uniform_f32(program.kernel("weft_uniform_f32")),
        normal_f32(program.kernel("weft_normal_f32")),
        exponential_f32(program.kernel("weft_exponential_f32")),
        integers{program.kernel("weft_integers_8"), program.kernel("weft_integers_16"),
                 program.kernel("weft_integers_32"), program.kernel("weft_integers_64")} {
    if (fp64) {
      uniform_f64 = program.kernel("weft_uniform_f64");
      normal_f64 = program.kernel("weft_normal_f64");
      exponential_f64 = program.kernel("weft_exponential_f64");
    }
  }
  bool fp64;
  Program program;
  Kernel raw, uniform_f32, normal_f32, exponential_f32;
  Kernel integers[4];  // 1, 2, 4 and 8 bytes
  Kernel uniform_f64, normal_f64, exponential_f64;
};

const Kernels& kernels(const Device& device) {
  static detail::Immortal<detail::DeviceLocal<const Kernels>> built;
  return built->get(device);
}

void check_device(const Device& device, const char* who) {
  if (!device) throw InvalidArgument(std::string("Generator.") + who + ": no device given");
}

// The elements of shape, checked against what one allocation of dtype can hold.
std::uint64_t element_count(const Shape& shape, DType dtype, const char* who) {
  const auto n = static_cast<std::uint64_t>(shape.size());
  if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / size_of(dtype)) {
    throw InvalidArgument(std::string("Generator.") + who + ": size " + to_string(shape) + " of " +
                          std::string(name(dtype)) + " is more bytes than a 64-bit size can count");
  }
  return n;
}

void check_float_dtype(DType dtype, const Device& device, const char* who) {
  if (dtype != DType::float32 && dtype != DType::float64) {
    throw InvalidArgument(std::string("Generator.") + who + ": dtype must be float32 or float64, not " +
                          std::string(name(dtype)));
  }
  if (dtype == DType::float64 && !device.info().fp64) {
    throw Unsupported(std::string("Generator.") + who + ": " + device.selector() + " (" + device.name() +
                      ") has no double precision; ask for dtype float32");
  }
}

void check_finite(double v, const char* arg, const char* who) {
  if (!std::isfinite(v)) {
    throw InvalidArgument(std::string("Generator.") + who + ": " + arg + " must be finite, not " + std::to_string(v));
  }
}

void check_scale(double scale, const char* who) {
  check_finite(scale, "scale", who);
  if (scale < 0) {
    throw InvalidArgument(std::string("Generator.") + who + ": scale must be non-negative, not " +
                          std::to_string(scale));
  }
}

std::uint64_t blocks_for(std::uint64_t n, std::uint64_t per_block) { return n / per_block + (n % per_block != 0); }

// The smallest and largest value of an integer dtype (bool: 0 and 1).
std::pair<Wide, Wide> dtype_bounds(DType t) {
  switch (t) {
    case DType::bool_: return {0, 1};
    case DType::int8: return {INT8_MIN, INT8_MAX};
    case DType::int16: return {INT16_MIN, INT16_MAX};
    case DType::int32: return {INT32_MIN, INT32_MAX};
    case DType::int64: return {INT64_MIN, INT64_MAX};
    case DType::uint8: return {0, UINT8_MAX};
    case DType::uint16: return {0, UINT16_MAX};
    case DType::uint32: return {0, UINT32_MAX};
    case DType::uint64: return {0, UINT64_MAX};
    default:
      throw InvalidArgument("Generator.integers: dtype must be an integer type or bool, not " +
                            std::string(name(t)));
  }
}

}  // namespace

Generator::Generator(std::uint64_t seed, const Counter& counter)
    : seed_(seed),
      next_lo_(counter[0] | (std::uint64_t{counter[1]} << 32)),
      next_hi_(counter[2] | (std::uint64_t{counter[3]} << 32)) {}

Counter Generator::counter() const noexcept {
  return {static_cast<std::uint32_t>(next_lo_), static_cast<std::uint32_t>(next_lo_ >> 32),
          static_cast<std::uint32_t>(next_hi_), static_cast<std::uint32_t>(next_hi_ >> 32)};
}

void Generator::advance(std::uint64_t blocks) noexcept { take(blocks); }

std::array<std::uint64_t, 2> Generator::take(std::uint64_t blocks) noexcept {
  const std::array<std::uint64_t, 2> first{next_lo_, next_hi_};
  next_lo_ += blocks;
  next_hi_ += next_lo_ < blocks ? 1 : 0;
  return first;
}

namespace {

// Launches kernel (parameters out, seed, base_lo, base_hi, extra...) for the n elements of a
// new array, per_block a block, from the blocks starting at base (taken from the generator by
// the caller). The kernels write whole blocks and test no bounds: the whole blocks go straight
// into the array, a last, partial one into a block of its own whose first elements are copied
// after them.
template <class... Extra>
Array launch(const Kernel& kernel, const Shape& shape, DType dtype, const Device& device, std::uint64_t n,
             std::uint64_t per_block, std::uint64_t seed, std::array<std::uint64_t, 2> base, const Extra&... extra) {
  Array out = Array::empty(shape, dtype, device);
  if (n == 0) return out;
  Queue& queue = detail::array_queue(device);
  const std::uint64_t whole = n / per_block, rest = n % per_block;
  if (whole) {
    KernelArgs args(kernel);
    args.set_all(out.buffer(), seed, base[0], base[1], extra...);
    queue.launch(args, NDRange(static_cast<std::size_t>(whole)));
  }
  if (rest) {
    const Array last = Array::empty(Shape{static_cast<std::int64_t>(per_block)}, dtype, device);
    const std::uint64_t lo = base[0] + whole, hi = base[1] + (lo < whole ? 1 : 0);
    KernelArgs args(kernel);
    args.set_all(last.buffer(), seed, lo, hi, extra...);
    queue.launch(args, NDRange(1));
    const std::size_t item = size_of(dtype);
    queue.copy(last.buffer(), out.buffer(), static_cast<std::size_t>(rest) * item, 0,
               static_cast<std::size_t>(whole * per_block) * item);
  }
  out.mark_written();
  return out;
}

}  // namespace

Array Generator::random_raw(const Shape& shape, const Device& device) {
  check_device(device, "random_raw");
  const std::uint64_t n = element_count(shape, DType::uint32, "random_raw");
  const Kernels& k = kernels(device);
  return launch(k.raw, shape, DType::uint32, device, n, 4, seed_, take(blocks_for(n, 4)));
}

Array Generator::random(const Shape& shape, DType dtype, const Device& device) {
  check_device(device, "random");
  check_float_dtype(dtype, device, "random");
  // fma(1, u, 0) is u: the uniform kernel with low 0 and range 1.
  return uniform(0.0, 1.0, shape, dtype, device);
}

Array Generator::uniform(double low, double high, const Shape& shape, DType dtype, const Device& device) {
  check_device(device, "uniform");
  check_float_dtype(dtype, device, "uniform");
  check_finite(low, "low", "uniform");
  check_finite(high, "high", "uniform");
  const std::uint64_t n = element_count(shape, dtype, "uniform");
  const Kernels& k = kernels(device);
  if (dtype == DType::float32) {
    const auto lo = static_cast<float>(low), hi = static_cast<float>(high);
    const float range = hi - lo;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(range)) {
      throw InvalidArgument("Generator.uniform: low " + std::to_string(low) + " and high " + std::to_string(high) +
                            " are not a finite range in float32");
    }
    return launch(k.uniform_f32, shape, dtype, device, n, 4, seed_, take(blocks_for(n, 4)), lo, range);
  }
  const double range = high - low;
  if (!std::isfinite(range)) {
    throw InvalidArgument("Generator.uniform: high - low overflows (low " + std::to_string(low) + ", high " +
                          std::to_string(high) + ")");
  }
  return launch(k.uniform_f64, shape, dtype, device, n, 2, seed_, take(blocks_for(n, 2)), low, range);
}

Array Generator::normal(double mean, double scale, const Shape& shape, DType dtype, const Device& device) {
  check_device(device, "normal");
  check_float_dtype(dtype, device, "normal");
  check_finite(mean, "mean", "normal");
  check_scale(scale, "normal");
  const std::uint64_t n = element_count(shape, dtype, "normal");
  const Kernels& k = kernels(device);
  if (dtype == DType::float32) {
    return launch(k.normal_f32, shape, dtype, device, n, 4, seed_, take(blocks_for(n, 4)), static_cast<float>(mean),
                  static_cast<float>(scale));
  }
  return launch(k.normal_f64, shape, dtype, device, n, 2, seed_, take(blocks_for(n, 2)), mean, scale);
}

Array Generator::standard_normal(const Shape& shape, DType dtype, const Device& device) {
  return normal(0.0, 1.0, shape, dtype, device);
}

Array Generator::exponential(double scale, const Shape& shape, DType dtype, const Device& device) {
  check_device(device, "exponential");
  check_float_dtype(dtype, device, "exponential");
  check_scale(scale, "exponential");
  const std::uint64_t n = element_count(shape, dtype, "exponential");
  const Kernels& k = kernels(device);
  if (dtype == DType::float32) {
    return launch(k.exponential_f32, shape, dtype, device, n, 4, seed_, take(blocks_for(n, 4)), static_cast<float>(scale));
  }
  return launch(k.exponential_f64, shape, dtype, device, n, 2, seed_, take(blocks_for(n, 2)), scale);
}

Array Generator::standard_exponential(const Shape& shape, DType dtype, const Device& device) {
  return exponential(1.0, shape, dtype, device);
}

namespace {

// [low, high] (inclusive), checked against dtype as NumPy checks it, as the kernels take it:
// low's bits and the count of values (0 for 2^64).
std::array<std::uint64_t, 2> integer_range(Wide low, Wide high, bool endpoint, DType dtype) {
  const auto [min, max] = dtype_bounds(dtype);
  const std::string type(name(dtype));
  const Wide last = endpoint ? high : high - 1;
  if (low < min || low > max) throw InvalidArgument("Generator.integers: low is out of bounds for " + type);
  if (last < min || last > max) throw InvalidArgument("Generator.integers: high is out of bounds for " + type);
  if (last < low) {
    throw InvalidArgument(std::string("Generator.integers: ") + (endpoint ? "low > high" : "low >= high") +
                          " (the range is empty)");
  }
  return {static_cast<std::uint64_t>(low), static_cast<std::uint64_t>(last - low + 1)};  // 2^64 wraps to 0
}

}  // namespace

Array Generator::integers(std::int64_t low, std::int64_t high, const Shape& shape, DType dtype, const Device& device,
                          bool endpoint) {
  return bounded(integer_range(low, high, endpoint, dtype), shape, dtype, device);
}

Array Generator::integers_unsigned(std::uint64_t low, std::uint64_t high, const Shape& shape, DType dtype,
                                   const Device& device, bool endpoint) {
  return bounded(integer_range(low, high, endpoint, dtype), shape, dtype, device);
}

Array Generator::bounded(std::array<std::uint64_t, 2> range, const Shape& shape, DType dtype, const Device& device) {
  check_device(device, "integers");
  const std::uint64_t n = element_count(shape, dtype, "integers");
  const Kernels& k = kernels(device);
  const std::size_t width = size_of(dtype);
  const Kernel& kernel = k.integers[width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3];
  const std::uint64_t per_block = width == 8 ? 1 : 2;
  return launch(kernel, shape, dtype, device, n, per_block, seed_, take(blocks_for(n, per_block)), range[0], range[1]);
}

}  // namespace weft::random
