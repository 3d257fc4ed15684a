#include "weft/dtype.hpp"

#include <array>
#include <string>

namespace weft {

namespace {
struct DTypeRow {
  DType type;
  std::size_t size;
  std::string_view name;
  std::string_view c_name;
};

constexpr std::array<DTypeRow, 14> rows{{
    {DType::bool_, 1, "bool", "bool"},
    {DType::int8, 1, "int8", "char"},
    {DType::int16, 2, "int16", "short"},
    {DType::int32, 4, "int32", "int"},
    {DType::int64, 8, "int64", "long"},
    {DType::uint8, 1, "uint8", "uchar"},
    {DType::uint16, 2, "uint16", "ushort"},
    {DType::uint32, 4, "uint32", "uint"},
    {DType::uint64, 8, "uint64", "ulong"},
    {DType::float16, 2, "float16", "half"},
    {DType::float32, 4, "float32", "float"},
    {DType::float64, 8, "float64", "double"},
    {DType::complex64, 8, "complex64", "cfloat"},
    {DType::complex128, 16, "complex128", "cdouble"},
}};

const DTypeRow& row(DType t) noexcept { return rows[static_cast<std::size_t>(t)]; }

struct Alias {
  std::string_view text;
  DType type;
};
// NumPy's short codes and C spellings that mean the same thing in the dialect.
constexpr Alias aliases[] = {
    {"bool_", DType::bool_},          {"?", DType::bool_},
    {"i1", DType::int8},              {"signed char", DType::int8},
    {"i2", DType::int16},             {"i4", DType::int32},
    {"i8", DType::int64},             {"u1", DType::uint8},
    {"unsigned char", DType::uint8},  {"u2", DType::uint16},
    {"unsigned short", DType::uint16}, {"u4", DType::uint32},
    {"unsigned int", DType::uint32},  {"unsigned", DType::uint32},
    {"u8", DType::uint64},            {"unsigned long", DType::uint64},
    {"f2", DType::float16},           {"f4", DType::float32},
    {"f8", DType::float64},
    {"c8", DType::complex64},         {"cfloat_t", DType::complex64},
    {"c16", DType::complex128},       {"cdouble_t", DType::complex128},
};
}  // namespace

std::size_t size_of(DType t) noexcept { return row(t).size; }
std::string_view name(DType t) noexcept { return row(t).name; }
std::string_view c_name(DType t) noexcept { return row(t).c_name; }

std::optional<DType> parse_dtype(std::string_view text) noexcept {
  for (const auto& r : rows) {
    if (text == r.name || text == r.c_name) return r.type;
  }
  for (const auto& a : aliases) {
    if (text == a.text) return a.type;
  }
  return std::nullopt;
}

}  // namespace weft
