// The tools' strict number parser: the whole text is the number, within the option's range.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "tools/support/numbers.hpp"

namespace weft::tool {
namespace {

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

std::string message_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ToolNumbers, IntegersAreDigitsOnlyWithinTheRange) {
  EXPECT_EQ(parse_integer("--seed", "0", 0, u64_max), 0u);
  EXPECT_EQ(parse_integer("--seed", "18446744073709551615", 0, u64_max), u64_max);
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1e3", "0x10", "18446744073709551616", "1.0", "abc"}) {
    EXPECT_THROW(parse_integer("--seed", bad, 0, u64_max), UsageError) << bad;
  }
  EXPECT_THROW(parse_integer("--k", "11", 1, 10), UsageError);
  EXPECT_EQ(message_of([] { parse_integer("--k", "0", 1, 10); }), "--k needs a whole number from 1 to 10, got '0'");
  EXPECT_EQ(message_of([] { parse_integer("--seed", "-1", 0, u64_max); }),
            "--seed needs a whole number of at least 0, got '-1'");
}

TEST(ToolNumbers, CountsTakeDigitsExponentsAndPowers) {
  const std::uint64_t max = std::uint64_t{1} << 40;
  EXPECT_EQ(parse_count("--n", "1000", 1, max), 1000u);
  EXPECT_EQ(parse_count("--n", "1e6", 1, max), 1000000u);
  EXPECT_EQ(parse_count("--n", "2.5e3", 1, max), 2500u);
  EXPECT_EQ(parse_count("--n", "2^24", 1, max), std::uint64_t{1} << 24);
  EXPECT_EQ(parse_count("--n", "2^40", 1, max), max);
  EXPECT_EQ(parse_count("--n", "1^99999999999", 1, max), 1u);  // no loop over the exponent
  EXPECT_EQ(parse_count("--w", "0", 0, 10), 0u);
  for (const char* bad : {"", "0", "-3", "1e15", "2^41", "2^64", "2^99999999999999", "1.5", "1e-3", "inf", "nan", "1e",
                          "e6", "^3", "2^", "2^-1", "0x10", " 5", "5 ", "1e400", "3^3^3", "99999999999999999999999"}) {
    EXPECT_THROW(parse_count("--n", bad, 1, max), UsageError) << bad;
  }
  EXPECT_EQ(message_of([] { parse_count("--repeat", "2^40", 1, 1000000); }),
            "--repeat needs a whole number from 1 to 1000000 (written as 1000, 1e6 or 2^20), got '2^40'");
}

TEST(ToolNumbers, NumbersAreFiniteAndWithinTheRange) {
  EXPECT_DOUBLE_EQ(parse_number("--days", "1.5", 0, 10), 1.5);
  EXPECT_DOUBLE_EQ(parse_number("--days", "2e0", 0, 10), 2.0);
  for (const char* bad : {"", "-5", "abc", "nan", "inf", "1e400", "11", "0x1", "1,5", " 1", "--1"}) {
    EXPECT_THROW(parse_number("--days", bad, 0, 10), UsageError) << bad;
  }
  EXPECT_EQ(message_of([] { parse_number("--max-size", "-5", 0, 100); }),
            "--max-size needs a number from 0 to 100, got '-5'");
}

TEST(ToolNumbers, LongOrBinaryValuesAreCutInMessages) {
  const std::string long_value(500, '9');
  const std::string m = message_of([&] { parse_integer("--k", long_value, 0, 10); });
  EXPECT_LT(m.size(), 150u) << m;
  EXPECT_NE(m.find("...'"), std::string::npos) << m;
  EXPECT_EQ(message_of([] { parse_integer("--k", std::string("1\n2", 3), 0, 10); }).find('\n'), std::string::npos);
}

TEST(ToolNumbers, PowersOfTwoAreNamedAsSuch) {
  EXPECT_EQ(describe_count(1000), "1000");
  EXPECT_EQ(describe_count(std::uint64_t{1} << 28), "268435456 (2^28)");
}

}  // namespace
}  // namespace weft::tool
