// Division by a kernel argument (dialect/uniform_divisors.hpp): the host translation divides
// by a reciprocal made once per launch where the divisor is a by-value integer parameter the
// kernel never writes. The results must be C's (truncating) quotient and remainder for every
// sign and size, on every device; the parameters that do not qualify keep plain division.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "dialect/translate.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;
using test::upload;

const char* const divisors_cl = R"(
__kernel void divide(__global const int *xi, __global const long *xl, __global int *out_i,
                     __global long *out_l, __global float *out_f, int n, uint u, long nl, ulong ul)
{
    size_t g = get_global_id(0);
    int x = xi[g];
    long y = xl[g];
    out_i[4 * g + 0] = x / n;
    out_i[4 * g + 1] = x % n;
    out_i[4 * g + 2] = (int)((uint)x / u);
    out_i[4 * g + 3] = (int)((uint)x % u);
    out_l[5 * g + 0] = y / nl;
    out_l[5 * g + 1] = y % nl;
    out_l[5 * g + 2] = (long)((ulong)y / ul);
    out_l[5 * g + 3] = (long)((ulong)y % ul);
    out_l[5 * g + 4] = y / n;          /* long by int: divides as written */
    out_f[g] = (float)x / n;            /* floating point: divides as written */
}
__kernel void shadowed(__global int *out, int n, int m)
{
    size_t g = get_global_id(0);
    int k = (int)g + 7;
    m = m + 1;                          /* written: divides as written */
    out[2 * g] = k % m;
    { int n = 3; out[2 * g + 1] = k / n; }  /* another n */
}
)";

struct DivisorCase {
  int n;
  unsigned u;
  long long nl;
  unsigned long long ul;
};

TEST(HostDivisors, QuotientsAndRemaindersAreCsForEverySignAndSize) {
  std::vector<int> xi{0, 1, -1, 7, -7, 100, -100, 123456789, -123456789, std::numeric_limits<int>::max(),
                      std::numeric_limits<int>::min() + 1, 65536, -65537, 3, -3, 2};
  std::vector<long long> xl;
  for (int x : xi) xl.push_back(static_cast<long long>(x) * 1000003LL - 17);
  xl[0] = std::numeric_limits<long long>::max();
  xl[1] = std::numeric_limits<long long>::min() + 1;
  const std::size_t count = xi.size();
  const DivisorCase cases[] = {{1, 1u, 1, 1u},
                        {-1, 2u, -1, 2u},
                        {3, 3u, 3, 3u},
                        {-7, 7u, -1000003, 1000003u},
                        {2147483647, 4294967295u, 9223372036854775807LL, 18446744073709551615ull},
                        {-2147483647, 2147483648u, -4294967296LL, 9223372036854775808ull},
                        {65536, 65537u, 1LL << 40, (1ull << 63) + 1}};
  for (const Device& dev : test::test_devices()) {
    Queue q(dev);
    Kernel k = Program::build(dev, divisors_cl).kernel("divide");
    Buffer bi = upload(q, xi), bl = upload(q, xl);
    Buffer oi = test::poisoned<int>(q, 4 * count), ol = test::poisoned<long long>(q, 5 * count),
           of = test::poisoned<float>(q, count);
    for (const DivisorCase& c : cases) {
      k.set_args(bi, bl, oi, ol, of, c.n, c.u, c.nl, c.ul);
      q.launch(k, count);
      const auto gi = download<int>(q, oi, 4 * count);
      const auto gl = download<long long>(q, ol, 5 * count);
      const auto gf = download<float>(q, of, count);
      for (std::size_t g = 0; g < count; ++g) {
        const int x = xi[g];
        const long long y = xl[g];
        const auto ux = static_cast<unsigned>(x);
        const auto uy = static_cast<unsigned long long>(y);
        const std::string where = dev.selector() + " x=" + std::to_string(x) + " y=" + std::to_string(y) +
                                  " n=" + std::to_string(c.n) + " u=" + std::to_string(c.u) +
                                  " nl=" + std::to_string(c.nl) + " ul=" + std::to_string(c.ul);
        EXPECT_EQ(gi[4 * g + 0], x / c.n) << where;
        EXPECT_EQ(gi[4 * g + 1], x % c.n) << where;
        EXPECT_EQ(gi[4 * g + 2], static_cast<int>(ux / c.u)) << where;
        EXPECT_EQ(gi[4 * g + 3], static_cast<int>(ux % c.u)) << where;
        EXPECT_EQ(gl[5 * g + 0], y / c.nl) << where;
        EXPECT_EQ(gl[5 * g + 1], y % c.nl) << where;
        EXPECT_EQ(gl[5 * g + 2], static_cast<long long>(uy / c.ul)) << where;
        EXPECT_EQ(gl[5 * g + 3], static_cast<long long>(uy % c.ul)) << where;
        EXPECT_EQ(gl[5 * g + 4], y / c.n) << where;
        EXPECT_FLOAT_EQ(gf[g], static_cast<float>(x) / static_cast<float>(c.n)) << where;
      }
    }
  }
}

TEST(HostDivisors, ParametersThatAreWrittenOrHiddenDivideAsWritten) {
  for (const Device& dev : test::test_devices()) {
    Queue q(dev);
    Kernel k = Program::build(dev, divisors_cl).kernel("shadowed");
    Buffer out = test::poisoned<int>(q, 2 * 64);
    k.set_args(out, 5, 4);
    q.launch(k, 64);
    const auto got = download<int>(q, out, 2 * 64);
    for (int g = 0; g < 64; ++g) {
      EXPECT_EQ(got[2 * g], (g + 7) % 5) << dev.selector() << " " << g;
      EXPECT_EQ(got[2 * g + 1], (g + 7) / 3) << dev.selector() << " " << g;
    }
  }
}

TEST(HostDivisors, TheTranslationDividesByReciprocalsOnlyWhereItMay) {
  using detail::dialect::Target;
  const auto tr = detail::dialect::translate(divisors_cl, Target::host);
  const std::string& t = tr.text;
  // divide: n, u, nl and ul are divisors (parameters 5 to 8); shadowed: none.
  EXPECT_NE(t.find("UniformDivisor<decltype(n)> weft_div_n(n, weft_wi.div[5]);"), std::string::npos) << t;
  EXPECT_NE(t.find("weft_div_ul(ul, weft_wi.div[8]);"), std::string::npos) << t;
  EXPECT_NE(t.find("x / weft_div_n;"), std::string::npos) << t;
  EXPECT_NE(t.find("(float)x / weft_div_n;"), std::string::npos) << t;  // falls back inside the operator
  EXPECT_NE(t.find("run<&::weft_kernel::divide, false, 480ull>"), std::string::npos) << t;
  EXPECT_NE(t.find("run<&::weft_kernel::shadowed, false, 0ull>"), std::string::npos) << t;
  EXPECT_NE(t.find("out[2 * g] = k % m;"), std::string::npos) << t;
  EXPECT_NE(t.find("k / n; }"), std::string::npos) << t;
}

}  // namespace
}  // namespace weft
