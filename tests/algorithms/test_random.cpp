// weft::random::Generator on every device: Random123's known answers for Philox4x32-10, the
// stream against a C++ transcription of its layout (include/weft/random.hpp) bit for bit,
// the same numbers on every device, loose statistics, and the errors bad requests get.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"
#include "weft/random.hpp"

namespace weft {
namespace {

using random::Counter;
using random::Generator;

// Random123's tests/kat_vectors (github.com/DEShawResearch/random123, commit 9545ff64), the
// three "philox4x32 10" lines: counter (4 words), key (2 words), the 4 words philox gives.
struct Kat {
  Counter counter;
  std::uint32_t key[2];
  Counter expected;
};
const Kat kat_vectors[] = {
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000}, {0x00000000, 0x00000000},
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

std::uint64_t seed_of(const std::uint32_t key[2]) { return key[0] | (std::uint64_t{key[1]} << 32); }

// Philox4x32-10 in plain C++, from the paper's definition (checked against the same vectors).
Counter philox(Counter c, std::uint32_t k0, std::uint32_t k1) {
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * c[0], p1 = std::uint64_t{0xCD9E8D57u} * c[2];
    c = {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<std::uint32_t>(p1),
         static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<std::uint32_t>(p0)};
  }
  return c;
}

// The words of blocks start, start + 1, ... (a 128-bit counter) for seed.
struct Stream {
  std::uint64_t seed;
  Counter start;
  Counter block(std::uint64_t j) const {
    std::uint64_t lo = start[0] | (std::uint64_t{start[1]} << 32), hi = start[2] | (std::uint64_t{start[3]} << 32);
    lo += j;
    hi += lo < j ? 1 : 0;
    return philox({static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(lo >> 32), static_cast<std::uint32_t>(hi),
                   static_cast<std::uint32_t>(hi >> 32)},
                  static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
  }
  std::uint32_t word(std::uint64_t i) const { return block(i / 4)[i % 4]; }
  std::uint64_t pair(std::uint64_t i) const {  // 64 bits: words 2i (low) and 2i + 1
    return word(2 * i) | (std::uint64_t{word(2 * i + 1)} << 32);
  }
};

float unit_f32(std::uint32_t w) { return static_cast<float>(w >> 8) * 0x1p-24f; }
double unit_f64(std::uint64_t x) { return static_cast<double>(x >> 11) * 0x1p-53; }

class Random : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();
  bool fp64 = dev.info().fp64;
};

TEST_P(Random, KnownAnswerVectors) {
  for (const Kat& v : kat_vectors) {
    EXPECT_EQ(philox(v.counter, v.key[0], v.key[1]), v.expected);  // the test's own reference
    Generator g(seed_of(v.key), v.counter);
    const auto got = g.random_raw({4}, dev).to_host<std::uint32_t>();
    EXPECT_EQ((Counter{got[0], got[1], got[2], got[3]}), v.expected) << std::hex << v.counter[0];
  }
}

// A counter whose low 64 bits carry into the high ones inside the call, an odd size.
const Counter carrying{0xfffffffe, 0xffffffff, 7, 0};
constexpr std::uint64_t seed = 0x0123456789abcdefULL;
constexpr std::int64_t stream_n = 1003;

TEST_P(Random, RawWordsFollowTheCounter) {
  Generator g(seed, carrying);
  const auto got = g.random_raw({stream_n}, dev).to_host<std::uint32_t>();
  const Stream s{seed, carrying};
  for (std::int64_t i = 0; i < stream_n; ++i) ASSERT_EQ(got[i], s.word(i)) << i;
  // 251 blocks used: the next call starts after them.
  EXPECT_EQ(g.counter(), (Counter{0xf9, 0, 8, 0}));
}

TEST_P(Random, FloatsAreTheTopBitsOfTheWords) {
  Generator g(seed, carrying);
  const auto f = g.random({stream_n}, DType::float32, dev).to_host<float>();
  const Stream s{seed, carrying};
  for (std::int64_t i = 0; i < stream_n; ++i) ASSERT_EQ(f[i], unit_f32(s.word(i))) << i;
  const auto u = g.uniform(-3.0, 5.0, {stream_n}, DType::float32, dev).to_host<float>();
  const std::uint64_t used = (stream_n + 3) / 4;  // random's blocks
  for (std::int64_t i = 0; i < stream_n; ++i) {
    ASSERT_EQ(u[i], std::fma(8.0f, unit_f32(s.word(4 * used + i)), -3.0f)) << i;
  }
  if (!fp64) return;
  Generator h(seed, carrying);
  const auto d = h.random({stream_n}, DType::float64, dev).to_host<double>();
  for (std::int64_t i = 0; i < stream_n; ++i) ASSERT_EQ(d[i], unit_f64(s.pair(i))) << i;
  const auto ud = h.uniform(2.0, 2.5, {stream_n}, DType::float64, dev).to_host<double>();
  const std::uint64_t used64 = (stream_n + 1) / 2;
  for (std::int64_t i = 0; i < stream_n; ++i) ASSERT_EQ(ud[i], std::fma(0.5, unit_f64(s.pair(2 * used64 + i)), 2.0)) << i;
}

__extension__ typedef unsigned __int128 U128;
__extension__ typedef __int128 I128;

// floor(x * r / 2^k), x the element's 64 (or 128) bits, as the header documents.
template <class T>
void expect_integers(const Device& dev, std::int64_t low, std::int64_t high, DType dtype) {
  Generator g(seed, carrying);
  const auto got = g.integers(low, high, {stream_n}, dtype, dev).template to_host<T>();
  const Stream s{seed, carrying};
  const U128 range = static_cast<U128>(static_cast<I128>(high) - low);
  for (std::int64_t i = 0; i < stream_n; ++i) {
    std::uint64_t offset;
    if (sizeof(T) == 8) {
      const Counter w = s.block(i);
      const U128 x = (U128{w[3]} << 96) | (U128{w[2]} << 64) | (U128{w[1]} << 32) | w[0];
      // x * range / 2^128 without 256 bits: split x into 64-bit halves.
      const U128 hi = (x >> 64) * range, lo = (x & ~std::uint64_t{0}) * range;
      offset = static_cast<std::uint64_t>((hi + (lo >> 64)) >> 64);
    } else {
      offset = static_cast<std::uint64_t>((U128{s.pair(i)} * range) >> 64);
    }
    ASSERT_EQ(got[i], static_cast<T>(static_cast<std::uint64_t>(low) + offset)) << i << " " << name(dtype);
    ASSERT_GE(static_cast<std::int64_t>(got[i]), low);
    ASSERT_LT(static_cast<std::int64_t>(got[i]), high);
  }
}

TEST_P(Random, IntegersEveryWidth) {
  expect_integers<std::int8_t>(dev, -100, 27, DType::int8);
  expect_integers<std::uint8_t>(dev, 0, 256, DType::uint8);
  expect_integers<std::int16_t>(dev, -5, 7, DType::int16);
  expect_integers<std::uint16_t>(dev, 10, 60000, DType::uint16);
  expect_integers<std::int32_t>(dev, std::numeric_limits<std::int32_t>::min(), 1, DType::int32);
  expect_integers<std::uint32_t>(dev, 0, 4294967296LL, DType::uint32);
  expect_integers<std::int64_t>(dev, -(std::int64_t{1} << 62), std::int64_t{3} << 61, DType::int64);
  expect_integers<std::uint64_t>(dev, 1, 1000, DType::uint64);
}

TEST_P(Random, IntegersFullRangesAndEndpoint) {
  Generator g(3);
  const auto all = g.integers(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), {64},
                              DType::int64, dev, true)
                       .to_host<std::int64_t>();
  const Stream s{3, {}};
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Counter w = s.block(i);
    ASSERT_EQ(static_cast<std::uint64_t>(all[i]), (w[2] | (std::uint64_t{w[3]} << 32)) + (std::uint64_t{1} << 63));
  }
  const auto u = g.integers_unsigned(0, std::numeric_limits<std::uint64_t>::max(), {64}, DType::uint64, dev, true)
                     .to_host<std::uint64_t>();
  for (std::size_t i = 0; i < u.size(); ++i) {
    const Counter w = s.block(64 + i);
    ASSERT_EQ(u[i], w[2] | (std::uint64_t{w[3]} << 32));
  }
  const auto b = g.integers(0, 1, {1000}, DType::bool_, dev, true).astype(DType::uint8).to_host<std::uint8_t>();
  int ones = 0;
  for (const auto v : b) {
    ASSERT_LE(v, 1);
    ones += v;
  }
  EXPECT_GT(ones, 400);
  EXPECT_LT(ones, 600);
  const auto one = g.integers(5, 5, {10}, DType::int16, dev, true).to_host<std::int16_t>();
  for (const auto v : one) EXPECT_EQ(v, 5);
}

TEST_P(Random, CallsContinueTheStream) {
  Generator a(11), b(11);
  const auto first = a.random({8}, DType::float32, dev).to_host<float>();
  const auto second = a.random({8}, DType::float32, dev).to_host<float>();
  const auto both = b.random({16}, DType::float32, dev).to_host<float>();
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(first[i], both[i]);
    EXPECT_EQ(second[i], both[8 + i]);
  }
  // A call of 5 float32 uses 2 blocks; an empty call none.
  Generator c(11);
  c.random({5}, DType::float32, dev);
  c.random({0}, DType::float32, dev);
  EXPECT_EQ(c.counter(), (Counter{2, 0, 0, 0}));
  Generator copy = c;
  EXPECT_EQ(copy.random({3, 2}, DType::float32, dev).to_host<float>(), c.random({6}, DType::float32, dev).to_host<float>());
  EXPECT_EQ(copy.random({3, 2}, DType::float32, dev).shape(), (Shape{3, 2}));
  c.advance(~std::uint64_t{0});
  EXPECT_EQ(c.counter(), (Counter{3, 0, 1, 0}));  // 4 + 2^64 - 1 blocks, carried
}

// random.cl's float32 math, transcribed: the kernels must give these bits on every device.
float log_f32(std::uint32_t k) {
  std::uint32_t bits;
  const auto fk = static_cast<float>(k);
  std::memcpy(&bits, &fk, 4);
  int e = static_cast<int>(bits >> 23) - 127 - 24;
  const std::uint32_t mbits = (bits & 0x007fffffu) | 0x3f800000u;
  float m;
  std::memcpy(&m, &mbits, 4);
  if (m > 1.41421356f) {
    m *= 0.5f;
    e += 1;
  }
  const float x = m - 1.0f, z = x * x;
  float p = 7.0376836292E-2f;
  for (const float c : {-1.1514610310E-1f, 1.1676998740E-1f, -1.2420140846E-1f, 1.4249322787E-1f, -1.6668057665E-1f,
                        2.0000714765E-1f, -2.4999993993E-1f, 3.3333331174E-1f}) {
    p = std::fma(p, x, c);
  }
  const auto fe = static_cast<float>(e);
  float y = std::fma(fe, -2.12194440E-4f, (x * z) * p);
  y = std::fma(-0.5f, z, y);
  return std::fma(fe, 0.693359375f, x + y);
}

float sqrt_f32(float v) {
  const float h = 0.5f * v;
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  bits = 0x5f375a86u - (bits >> 1);
  float y;
  std::memcpy(&y, &bits, 4);
  for (int k = 0; k < 3; ++k) y = y * std::fma(-(h * y), y, 1.5f);
  const float s = v * y;
  return std::fma(std::fma(-s, s, v), 0.5f * y, s);
}

std::pair<float, float> sincos_turns_f32(std::uint32_t k) {  // (sin, cos) of 2 pi k / 2^24
  const std::uint32_t quadrant = k >> 22, r = k & 0x3fffffu;
  const bool fold = r > 0x200000u;
  const float x = static_cast<float>(fold ? 0x400000u - r : r) * 3.7450702829239286e-07f;
  const float z = x * x;
  const float ps = std::fma(std::fma(-1.9515295891E-4f, z, 8.3321608736E-3f), z, -1.6666654611E-1f);
  const float s = std::fma(ps * z, x, x);
  const float pc = std::fma(std::fma(2.443315711809948E-5f, z, -1.388731625493765E-3f), z, 4.166664568298827E-2f);
  const float c = std::fma(pc * z, z, std::fma(-0.5f, z, 1.0f));
  const float sq = fold ? c : s, cq = fold ? s : c;
  switch (quadrant) {
    case 0: return {sq, cq};
    case 1: return {cq, -sq};
    case 2: return {-sq, -cq};
    default: return {-cq, sq};
  }
}

// random_f64.cl's math, transcribed.
double log_f64(std::uint64_t k) {
  std::uint64_t bits;
  const auto dk0 = static_cast<double>(k);
  std::memcpy(&bits, &dk0, 8);
  int e = static_cast<int>(bits >> 52) - 1023 - 53;
  const std::uint64_t mbits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
  double m;
  std::memcpy(&m, &mbits, 8);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e += 1;
  }
  const double f = m - 1.0, s = f / (2.0 + f), dk = e, z = s * s, w = z * z;
  const double t1 = w * std::fma(w, std::fma(w, 1.531383769920937332e-01, 2.222219843214978396e-01),
                                 3.999999999940941908e-01);
  const double t2 = std::fma(w, std::fma(w, std::fma(w, 1.479819860511658591e-01, 1.818357216161805012e-01),
                                         2.857142874366239149e-01),
                             6.666666666666735130e-01);
  const double r = std::fma(z, t2, t1), half_f = 0.5 * f;
  const double a = std::fma(half_f, f, r);
  const double b = std::fma(s, a, dk * 1.90821492927058770002e-10);
  const double c = std::fma(half_f, f, -b);
  return std::fma(dk, 6.93147180369123816490e-01, f - c);
}

std::pair<double, double> sincos_turns_f64(std::uint64_t k) {  // (sin, cos) of 2 pi k / 2^53
  const std::uint64_t quadrant = k >> 51, r = k & 0x7ffffffffffffULL;
  const bool fold = r > 0x4000000000000ULL;
  const double x = static_cast<double>(fold ? 0x8000000000000ULL - r : r) * 6.975736996017264e-16;
  const double z = x * x;
  const double ps = std::fma(
      z, std::fma(z, std::fma(z, std::fma(z, 1.58969099521155010221e-10, -2.50507602534068634195e-08),
                              2.75573137070700676789e-06),
                  -1.98412698298579493134e-04),
      8.33333333332248946124e-03);
  const double s = std::fma(z * x, std::fma(z, ps, -1.66666666666666324348e-01), x);
  const double pc = std::fma(
      z, std::fma(z, std::fma(z, std::fma(z, std::fma(z, -1.13596475577881948265e-11, 2.08757232129817482790e-09),
                                          -2.75573143513906633035e-07),
                              2.48015872894767294178e-05),
                  -1.38888888888741095749e-03),
      4.16666666666666019037e-02);
  const double hz = 0.5 * z, v = 1.0 - hz;
  const double c = v + std::fma(z, z * pc, (1.0 - v) - hz);
  const bool odd = fold != ((quadrant & 1) != 0);
  const double sa = odd ? c : s, ca = odd ? s : c;
  return {quadrant >= 2 ? -sa : sa, quadrant == 1 || quadrant == 2 ? -ca : ca};
}

TEST(RandomMath, Float64MathIsAccurate) {
  // Against the C++ library (glibc's log, sin and cos are within an ulp): a few ulp.
  std::mt19937_64 rng(1);
  double worst_log = 0, worst_sin = 0;
  for (int t = 0; t < 200000; ++t) {
    const std::uint64_t k = (rng() >> 11) >> (t % 53) | 1;
    const double want = std::log(static_cast<double>(k) * 0x1p-53);
    if (want != 0) worst_log = std::max(worst_log, std::fabs(log_f64(k) - want) / (std::fabs(want) * 0x1p-52));
    const std::uint64_t a = rng() >> 11;
    const auto [s, c] = sincos_turns_f64(a);
    const double angle = 6.283185307179586476925 * static_cast<double>(a) * 0x1p-53;
    // The angle's own rounding (in the library's argument) is up to 2^-51 here: measure in 2^-53.
    worst_sin = std::max({worst_sin, std::fabs(s - std::sin(angle)) / 0x1p-53, std::fabs(c - std::cos(angle)) / 0x1p-53});
  }
  EXPECT_EQ(log_f64(std::uint64_t{1} << 53), 0.0);
  EXPECT_LT(worst_log, 2.0) << "ulps of log";
  EXPECT_LT(worst_sin, 8.0) << "sin and cos, in units of 2^-53";
}

TEST(RandomMath, Float32MathIsAccurate) {
  // The transcription against the C++ library in double: every k of log, a sweep of angles.
  float worst_log = 0, worst_sin = 0, worst_sqrt = 0;
  for (std::uint32_t k = 1; k <= (1u << 24); k += (k < 4096 ? 1 : 97)) {
    const double want = std::log(static_cast<double>(k) * 0x1p-24);
    const double got = log_f32(k);
    worst_log = std::max(worst_log, static_cast<float>(std::fabs(got - want) / std::max(1e-30, std::fabs(want) * 0x1p-23)));
    const float v = -2.0f * log_f32(k);
    const double root = std::sqrt(static_cast<double>(v));
    if (root > 0) {
      worst_sqrt = std::max(worst_sqrt, static_cast<float>(std::fabs(sqrt_f32(v) - root) / (root * 0x1p-23)));
    }
  }
  for (std::uint32_t k = 0; k < (1u << 24); k += 331) {
    const double t = 6.283185307179586476925 * static_cast<double>(k) * 0x1p-24;
    const auto [s, c] = sincos_turns_f32(k);
    worst_sin = std::max({worst_sin, static_cast<float>(std::fabs(s - std::sin(t)) / 0x1p-24),
                          static_cast<float>(std::fabs(c - std::cos(t)) / 0x1p-24)});
  }
  EXPECT_EQ(sqrt_f32(0.0f), 0.0f);
  EXPECT_EQ(log_f32(1u << 24), 0.0f);
  EXPECT_LT(worst_log, 4.0f) << "ulps of log";
  EXPECT_LT(worst_sqrt, 1.0f) << "ulps of sqrt";
  EXPECT_LT(worst_sin, 2.0f) << "sin and cos, in units of 2^-24";
}

TEST_P(Random, NormalAndExponentialAreTheDocumentedMath) {
  const Stream s{seed, {}};
  Generator g(seed);
  const auto z = g.normal(1.0, 2.0, {stream_n}, DType::float32, dev).to_host<float>();
  for (std::int64_t i = 0; i < stream_n; i += 2) {
    const float r = sqrt_f32(-2.0f * log_f32((s.word(i) >> 8) + 1));
    const auto [sn, cs] = sincos_turns_f32(s.word(i + 1) >> 8);
    ASSERT_EQ(z[i], std::fma(2.0f, r * cs, 1.0f)) << i;
    if (i + 1 < stream_n) {
      ASSERT_EQ(z[i + 1], std::fma(2.0f, r * sn, 1.0f)) << i + 1;
    }
    // And the distribution's formula in double, to float32's precision.
    const double rd = std::sqrt(-2.0 * std::log(static_cast<double>((s.word(i) >> 8) + 1) * 0x1p-24));
    const double td = 6.283185307179586476925 * unit_f32(s.word(i + 1));
    ASSERT_NEAR(z[i], 1.0 + 2.0 * rd * std::cos(td), 1e-5 * std::max(1.0, std::fabs(static_cast<double>(z[i])))) << i;
  }
  const std::uint64_t next = (stream_n + 3) / 4;
  const auto e = g.exponential(3.0, {stream_n}, DType::float32, dev).to_host<float>();
  for (std::int64_t i = 0; i < stream_n; ++i) {
    const std::uint32_t k = (s.word(4 * next + i) >> 8) + 1;
    ASSERT_EQ(e[i], (0.0f - log_f32(k)) * 3.0f) << i;
  }
  if (!fp64) return;
  Generator h(seed);
  const auto zd = h.normal(-1.0, 0.5, {stream_n}, DType::float64, dev).to_host<double>();
  for (std::int64_t i = 0; i < stream_n; i += 2) {
    const double r = std::sqrt(-2.0 * log_f64((s.pair(i) >> 11) + 1));
    const auto [sn, cs] = sincos_turns_f64(s.pair(i + 1) >> 11);
    ASSERT_EQ(zd[i], std::fma(0.5, r * cs, -1.0)) << i;
    if (i + 1 < stream_n) {
      ASSERT_EQ(zd[i + 1], std::fma(0.5, r * sn, -1.0)) << i + 1;
    }
  }
  const auto ed = h.standard_exponential({stream_n}, DType::float64, dev).to_host<double>();
  const std::uint64_t next64 = 2 * ((stream_n + 1) / 2);
  for (std::int64_t i = 0; i < stream_n; ++i) {
    ASSERT_EQ(ed[i], 0.0 - log_f64((s.pair(next64 + i) >> 11) + 1)) << i;
  }
}

// Moments of 2^16 draws: loose bounds (many standard errors) on a fixed seed.
TEST_P(Random, Statistics) {
  Generator g(2024);
  const std::int64_t m = 1 << 16;
  const auto moments = [](const auto& v) {
    double mean = 0, var = 0;
    for (const auto x : v) mean += static_cast<double>(x);
    mean /= static_cast<double>(v.size());
    for (const auto x : v) var += (static_cast<double>(x) - mean) * (static_cast<double>(x) - mean);
    return std::pair{mean, var / static_cast<double>(v.size())};
  };
  const auto u = g.random({m}, DType::float32, dev).to_host<float>();
  for (const float x : u) ASSERT_TRUE(x >= 0.0f && x < 1.0f) << x;
  auto [mu, var] = moments(u);
  EXPECT_NEAR(mu, 0.5, 0.01);
  EXPECT_NEAR(var, 1.0 / 12, 0.005);
  const auto z = g.normal(-2.0, 3.0, {m}, DType::float32, dev).to_host<float>();
  std::tie(mu, var) = moments(z);
  EXPECT_NEAR(mu, -2.0, 0.06);
  EXPECT_NEAR(var, 9.0, 0.3);
  const auto e = g.exponential(0.5, {m}, DType::float32, dev).to_host<float>();
  for (const float x : e) ASSERT_GE(x, 0.0f);
  std::tie(mu, var) = moments(e);
  EXPECT_NEAR(mu, 0.5, 0.02);
  EXPECT_NEAR(var, 0.25, 0.02);
  if (fp64) {
    const auto d = g.standard_normal({m}, DType::float64, dev).to_host<double>();
    std::tie(mu, var) = moments(d);
    EXPECT_NEAR(mu, 0.0, 0.02);
    EXPECT_NEAR(var, 1.0, 0.03);
  }
  // Chi-square of 10 equally likely values, 9 degrees of freedom: 42 is beyond p = 1e-5.
  const auto k = g.integers(-3, 7, {m}, DType::int32, dev).to_host<std::int32_t>();
  std::vector<double> counts(10);
  for (const auto v : k) {
    ASSERT_TRUE(v >= -3 && v < 7) << v;
    counts[static_cast<std::size_t>(v + 3)] += 1;
  }
  double chi2 = 0;
  for (const double c : counts) chi2 += (c - m / 10.0) * (c - m / 10.0) / (m / 10.0);
  EXPECT_LT(chi2, 42.0);
}

template <class F>
void expect_invalid(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected InvalidArgument mentioning " << needle;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST_P(Random, BadRequestsNameTheArgument) {
  Generator g(1);
  expect_invalid([&] { g.integers(5, 5, {3}, DType::int32, dev); }, "low >= high");
  expect_invalid([&] { g.integers(6, 5, {3}, DType::int32, dev, true); }, "low > high");
  expect_invalid([&] { g.integers(-1, 5, {3}, DType::uint8, dev); }, "low is out of bounds for uint8");
  expect_invalid([&] { g.integers(0, 129, {3}, DType::int8, dev); }, "high is out of bounds for int8");
  expect_invalid([&] { g.integers(0, 3, {3}, DType::float32, dev); }, "dtype must be an integer type or bool");
  expect_invalid([&] { g.integers(0, 3, {3}, DType::bool_, dev); }, "high is out of bounds for bool");
  expect_invalid([&] { g.random({3}, DType::int32, dev); }, "dtype must be float32 or float64, not int32");
  expect_invalid([&] { g.normal(0, 1, {3}, DType::float16, dev); }, "dtype must be float32 or float64");
  expect_invalid([&] { g.normal(0, -1, {3}, DType::float32, dev); }, "scale must be non-negative");
  expect_invalid([&] { g.exponential(-2, {3}, DType::float32, dev); }, "scale must be non-negative");
  expect_invalid([&] { g.normal(NAN, 1, {3}, DType::float32, dev); }, "mean must be finite");
  expect_invalid([&] { g.uniform(0, INFINITY, {3}, DType::float32, dev); }, "high must be finite");
  expect_invalid([&] { g.uniform(-1e300, 1e300, {3}, DType::float32, dev); }, "float32");
  expect_invalid([&] { g.random({std::int64_t{1} << 61}, DType::float64, dev); }, "size (2305843009213693952,)");
  expect_invalid([&] { g.random({3}, DType::float32, Device()); }, "no device");
  EXPECT_EQ(g.counter(), (Counter{0, 0, 0, 0}));  // nothing taken by a refused request
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Random, ::testing::ValuesIn(test::test_devices()), test::device_name);

// The first device (the host backend) against every other: the same numbers, bit for bit.
TEST(RandomAcrossDevices, SameSeedSameNumbers) {
  const std::vector<Device> all = test::test_devices();
  if (all.size() < 2) GTEST_SKIP() << "one device only";
  const Device& first = all[0];
  const auto draw = [](const Device& d) {
    Generator g(99);
    std::vector<std::vector<std::uint64_t>> bits;
    const auto add = [&](const Array& w) {  // the elements' bits, whatever their dtype
      std::vector<std::uint64_t> v;
      if (size_of(w.dtype()) == 4) {
        std::vector<std::uint32_t> raw(static_cast<std::size_t>(w.size()));
        w.to_host_bytes(raw.data(), w.dtype());
        v.assign(raw.begin(), raw.end());
      } else {
        v.resize(static_cast<std::size_t>(w.size()));
        w.to_host_bytes(v.data(), w.dtype());
      }
      bits.push_back(std::move(v));
    };
    add(g.random_raw({4099}, d));
    add(g.random({4099}, DType::float32, d));
    add(g.uniform(-1, 7, {4099}, DType::float32, d));
    add(g.integers(-9, 1000, {4099}, DType::int32, d));
    add(g.integers(0, 1LL << 40, {4099}, DType::int64, d));
    add(g.normal(-1, 3, {4099}, DType::float32, d));
    add(g.exponential(2, {4099}, DType::float32, d));
    if (d.info().fp64) {
      add(g.random({4099}, DType::float64, d));
      add(g.uniform(-1, 7, {4099}, DType::float64, d));
      add(g.normal(2, 3, {4099}, DType::float64, d));
      add(g.exponential(0.5, {4099}, DType::float64, d));
    }
    return bits;
  };
  const auto want = draw(first);
  for (std::size_t k = 1; k < all.size(); ++k) {
    const auto got = draw(all[k]);
    ASSERT_LE(got.size(), want.size());
    for (std::size_t c = 0; c < got.size(); ++c) EXPECT_EQ(got[c], want[c]) << all[k].selector() << " call " << c;
  }
}

}  // namespace
}  // namespace weft
