// Counter-based random numbers: Philox4x32-10 (Salmon et al., SC'11) with NumPy's
// Generator names. A number is a function of the seed and its position in the stream, so the
// same seed gives the same numbers, bit for bit, on the host, any OpenCL device and any CUDA
// GPU, whatever the work-group size (a device that flushes subnormal floats to zero aside:
// results below 2^-126 in float32 or 2^-1022 in float64 can differ there).
//
//   weft::random::Generator g(42);
//   weft::Array u = g.random({1000}, weft::DType::float32, dev);    // [0, 1)
//   weft::Array z = g.normal(0.0, 2.0, {256, 256}, weft::DType::float64, dev);
//   weft::Array k = g.integers(0, 6, {100}, weft::DType::int8, dev); // [0, 6)
//
// The stream is a sequence of Philox blocks of four 32-bit words: block j is
// philox4x32_10(counter = j as a 128-bit number, key = (seed's low 32 bits, high 32 bits)).
// A call takes the blocks it needs from the generator's counter and moves the counter past
// them, as NumPy's Generator moves its bit generator on. Elements per block: 4 for float32
// random, uniform, normal and exponential and for the raw words, 2 for float64 ones and for
// integers up to 32 bits, 1 for 64-bit integers (element i of a call is in block i / per
// block). So u(8) then u(8) equals u(16) for float32; a call whose size is not a multiple of
// its elements per block leaves the rest of its last block unused.
//
// Conversions are exact: float32 is a word's top 24 bits times 2^-24, float64 the top 53 bits
// of two words times 2^-53; uniform is one fma. normal (Box-Muller) and exponential (-log u)
// compute log, sin and cos with weft's own polynomials (Cephes for float32, fdlibm for float64)
// from integer arithmetic, +, -, *, /, sqrt and explicit fma, never the device's math library,
// whose last bits differ between backends. So every method gives the same bits on every
// backend (docs/ALGORITHMS.md has the accuracy).
//
// A Generator is a value: copying it copies its position (both copies then give the same
// numbers). Use one from one thread at a time, as a standard library engine.
#pragma once

#include "weft/export.hpp"

#include <array>
#include <cstdint>
#include <string>

#include "weft/array.hpp"
#include "weft/device.hpp"
#include "weft/dtype.hpp"
#include "weft/shape.hpp"

namespace weft::random {

/// A 128-bit Philox counter as its four 32-bit words, least significant first.
using Counter = std::array<std::uint32_t, 4>;

class WEFT_API Generator {
 public:
  /// A stream keyed by seed, starting at block 0.
  explicit Generator(std::uint64_t seed) : seed_(seed) {}
  /// A stream keyed by seed, starting at block counter (Random123's counter words).
  Generator(std::uint64_t seed, const Counter& counter);

  std::uint64_t seed() const noexcept { return seed_; }
  /// The next block this generator will use.
  Counter counter() const noexcept;
  /// Moves the generator on by blocks Philox blocks (wrapping at 2^128), as if a call had
  /// used them.
  void advance(std::uint64_t blocks) noexcept;

  /// The raw words, uint32: element 4j + k is word k of block j.
  Array random_raw(const Shape& shape, const Device& device = default_device());

  /// Uniform in [0, 1); dtype float32 or float64.
  Array random(const Shape& shape, DType dtype = DType::float64, const Device& device = default_device());
  /// low + (high - low) * u, u in [0, 1), rounded once; as NumPy's uniform, high may come out
  /// through rounding and low > high is allowed (the values then lie in (high, low]).
  /// InvalidArgument when low, high or high - low is not finite (in dtype).
  Array uniform(double low, double high, const Shape& shape, DType dtype = DType::float64,
                const Device& device = default_device());
  /// mean + scale * z, z standard normal (Box-Muller). InvalidArgument when scale is negative
  /// or either is not finite.
  Array normal(double mean, double scale, const Shape& shape, DType dtype = DType::float64,
               const Device& device = default_device());
  Array standard_normal(const Shape& shape, DType dtype = DType::float64, const Device& device = default_device());
  /// scale * -log(u), u in (0, 1]. InvalidArgument when scale is negative or not finite.
  Array exponential(double scale, const Shape& shape, DType dtype = DType::float64,
                    const Device& device = default_device());
  Array standard_exponential(const Shape& shape, DType dtype = DType::float64,
                             const Device& device = default_device());

  /// Integers in [low, high) (or [low, high] with endpoint), as NumPy's integers: dtype is a
  /// signed or unsigned integer type or bool, and both bounds must be its values
  /// (InvalidArgument naming the bound otherwise, and for an empty range). Each value of the
  /// range of r values has probability 1/r to within 2^-64 (for types up to 32 bits; 64
  /// random bits per element) or 2^-128 (64-bit types; 128 bits): floor(x * r / 2^k), no
  /// rejection, so every element keeps its place in the stream.
  Array integers(std::int64_t low, std::int64_t high, const Shape& shape, DType dtype = DType::int64,
                 const Device& device = default_device(), bool endpoint = false);
  /// The same with unsigned bounds, for uint64 ranges above 2^63 (integers_unsigned(0,
  /// UINT64_MAX, ..., DType::uint64, dev, true) is every uint64).
  Array integers_unsigned(std::uint64_t low, std::uint64_t high, const Shape& shape, DType dtype = DType::uint64,
                          const Device& device = default_device(), bool endpoint = false);

  /// Array-valued parameters, broadcast against shape as NumPy's Generator broadcasts them
  /// (src/algorithms/random_params.cpp): element i takes the same Philox block and words as
  /// with scalar parameters, and the same arithmetic with its own parameters, so equal
  /// parameters give the scalar calls' bits on every device. The parameters are on the
  /// result's device; floating ones are taken in dtype (float32 or float64), integer ones
  /// exactly. The same checks as the scalar forms, over every element (reductions read back).
  Array uniform(const Array& low, const Array& high, const Shape& shape, DType dtype = DType::float64);
  Array normal(const Array& mean, const Array& scale, const Shape& shape, DType dtype = DType::float64);
  Array exponential(const Array& scale, const Shape& shape, DType dtype = DType::float64);
  /// low and high: integer or bool arrays (int64 or uint64 values), [low, high) or with
  /// endpoint [low, high], each element's range non-empty and within dtype.
  Array integers(const Array& low, const Array& high, const Shape& shape, DType dtype = DType::int64,
                 bool endpoint = false);

 private:
  // integers of dtype from range = (low's bits, count of values, 0 for 2^64), checked.
  Array bounded(std::array<std::uint64_t, 2> range, const Shape& shape, DType dtype, const Device& device);
  // Hands out the next `blocks` blocks: returns the first, moves the counter past the last.
  std::array<std::uint64_t, 2> take(std::uint64_t blocks) noexcept;

  std::uint64_t seed_ = 0;
  std::uint64_t next_lo_ = 0;  // the next block: a 128-bit number
  std::uint64_t next_hi_ = 0;
};

/// The dialect (OpenCL C) source of the generator's helpers and kernels (src/kernels/cl/random.cl,
/// with random_f64.cl when fp64): programs that compute the stream in their own kernels (the
/// Python kernels' weft.random functions) include it, so their numbers are the Generator's.
WEFT_API const std::string& kernel_source(bool fp64);

/// NumPy's spelling: a Generator keyed by seed.
inline Generator default_rng(std::uint64_t seed) { return Generator(seed); }

}  // namespace weft::random
