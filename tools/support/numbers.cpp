#include "tools/support/numbers.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>

namespace weft::tool {

namespace {

std::string quoted(std::string_view text) {
  // Long or binary values are cut so the message stays one readable line.
  std::string s(text.substr(0, 60));
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  }
  return "'" + s + (text.size() > 60 ? "...'" : "'");
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Digits only, no sign, no blanks; false on overflow.
bool digits_value(std::string_view s, std::uint64_t* out) {
  if (!all_digits(s)) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string range_text(std::uint64_t min, std::uint64_t max) {
  if (max == std::numeric_limits<std::uint64_t>::max()) return "of at least " + std::to_string(min);
  return "from " + std::to_string(min) + " to " + describe_count(max);
}

std::string number_text(double v) {
  std::ostringstream os;
  os << std::setprecision(15) << v;
  return os.str();
}

}  // namespace

std::string describe_count(std::uint64_t n) {
  std::string s = std::to_string(n);
  if (n >= 1024 && std::has_single_bit(n)) s += " (2^" + std::to_string(std::countr_zero(n)) + ")";
  return s;
}

std::uint64_t parse_integer(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max) {
  std::uint64_t v = 0;
  if (!digits_value(text, &v) || v < min || v > max) {
    throw UsageError(std::string(option) + " needs a whole number " + range_text(min, max) + ", got " +
                     quoted(text));
  }
  return v;
}

std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max) {
  const auto bad = [&] {
    return UsageError(std::string(option) + " needs a whole number " + range_text(min, max) +
                      " (written as 1000, 1e6 or 2^20), got " + quoted(text));
  };
  std::uint64_t v = 0;
  if (const auto caret = text.find('^'); caret != std::string_view::npos) {
    std::uint64_t base = 0, exp = 0;
    if (!digits_value(text.substr(0, caret), &base) || !digits_value(text.substr(caret + 1), &exp)) throw bad();
    if (base <= 1) {
      v = exp == 0 ? 1 : base;
    } else {
      v = 1;
      for (std::uint64_t i = 0; i < exp; ++i) {
        if (v > max / base) throw bad();  // past max, and stopped long before it could wrap
        v *= base;
      }
    }
  } else if (all_digits(text)) {
    if (!digits_value(text, &v)) throw bad();  // more than 64 bits
  } else {
    // 1e6, 2.5e3: a decimal that must come out whole. It starts with a digit (no blanks,
    // signs, "inf" or "nan") and holds nothing strtod would read as hex.
    if (text.empty() || text[0] < '0' || text[0] > '9' ||
        text.find_first_not_of("0123456789.eE+-") != std::string_view::npos) {
      throw bad();
    }
    const std::string s(text);
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(d) || d < 0 || d != std::floor(d)) throw bad();
    if (d >= 0x1p64) throw bad();  // converting it would be undefined
    v = static_cast<std::uint64_t>(d);
  }
  if (v < min || v > max) throw bad();
  return v;
}

double parse_number(std::string_view option, std::string_view text, double min, double max) {
  const auto bad = [&] {
    return UsageError(std::string(option) + " needs a number from " + number_text(min) + " to " + number_text(max) +
                      ", got " + quoted(text));
  };
  // Digits, at most one point, an optional exponent; a leading '-' only to give a clearer
  // message below than "malformed".
  const std::string s(text);
  if (s.empty() || s.find_first_not_of("0123456789.eE+-") != std::string::npos) throw bad();
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(d) || d < min || d > max) throw bad();
  return d;
}

}  // namespace weft::tool
