// Strict parsing of the numbers the command line takes: the whole text must be the number,
// it must lie in the range the option accepts, and a bad one is a UsageError naming the
// option, what it accepts and what it got (never std::stoi's "stoi", never a silent wrap).
//
//   const std::uint64_t n = weft::tool::parse_count("--n", "2^24", 1, std::uint64_t{1} << 40);
//   const double days = weft::tool::parse_number("--older-than", "1.5", 0, 36500);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "weft/error.hpp"

namespace weft::tool {

/// A mistake in how the command was called (an unknown option, a malformed or out-of-range
/// value): the command exits with status 2, as for a usage error.
class UsageError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

/// A whole number written in decimal digits, within [min, max].
std::uint64_t parse_integer(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max);

/// A count within [min, max], written as digits (1000), in exponent form (1e6) or as a
/// power (2^24); the value must be whole.
std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max);

/// A finite decimal number within [min, max] (1, 0.5, 2e3).
double parse_number(std::string_view option, std::string_view text, double min, double max);

/// A number as a person reads it in a message: 1073741824 -> "1073741824 (2^30)".
std::string describe_count(std::uint64_t n);

}  // namespace weft::tool
