// Element types shared by buffers, kernels and arrays.
//
//   weft::DType t = weft::dtype_of<float>;      // DType::float32
//   weft::size_of(t) == 4; weft::name(t) == "float32"; weft::c_name(t) == "float"
//   weft::parse_dtype("uint8") == weft::DType::uint8
//
// Names follow NumPy (bool, int8 ... float64); c_name() gives the kernel dialect's spelling
// (OpenCL C: char, uchar, short ... double). float16 exists where a device has it.
// complex64/complex128 are the dialect's cfloat/cdouble (float2/double2 holding real,
// imaginary; src/kernels/cl/complex.cl has their arithmetic).
#pragma once

#include "weft/export.hpp"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace weft {

enum class DType : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  float32,
  float64,
  complex64,   // two float32: real, imaginary (NumPy's layout)
  complex128,  // two float64
};

/// Every dtype, in declaration order.
inline constexpr DType all_dtypes[] = {
    DType::bool_,  DType::int8,   DType::int16,   DType::int32,   DType::int64,   DType::uint8,
    DType::uint16, DType::uint32, DType::uint64,  DType::float16, DType::float32, DType::float64,
    DType::complex64, DType::complex128};

/// Size of one element in bytes.
WEFT_API std::size_t size_of(DType t) noexcept;
/// NumPy's name: "bool", "int8", ..., "float64".
WEFT_API std::string_view name(DType t) noexcept;
/// The kernel dialect's (OpenCL C's) spelling: "bool", "char", "uchar", ..., "double", "half",
/// "cfloat", "cdouble".
WEFT_API std::string_view c_name(DType t) noexcept;
/// Parses a NumPy name ("float32", "f4", "uint8", "bool") or an OpenCL C name ("float",
/// "uint", "unsigned int", "long"). Returns nullopt for anything else.
WEFT_API std::optional<DType> parse_dtype(std::string_view text) noexcept;

constexpr bool is_floating(DType t) noexcept {
  return t == DType::float16 || t == DType::float32 || t == DType::float64;
}
/// complex64 or complex128 (is_floating is for the real floating types only).
constexpr bool is_complex(DType t) noexcept { return t == DType::complex64 || t == DType::complex128; }
/// Real or complex floating.
constexpr bool is_inexact(DType t) noexcept { return is_floating(t) || is_complex(t); }
/// The real type of a complex one's parts (complex64 -> float32); other types are their own.
constexpr DType real_of(DType t) noexcept {
  return t == DType::complex64 ? DType::float32 : t == DType::complex128 ? DType::float64 : t;
}
/// The complex type whose parts are float t (float16/float32 -> complex64, float64 ->
/// complex128); a complex type is its own.
constexpr DType complex_of(DType t) noexcept {
  return t == DType::float64 || t == DType::complex128 ? DType::complex128 : DType::complex64;
}
constexpr bool is_signed_integer(DType t) noexcept {
  return t == DType::int8 || t == DType::int16 || t == DType::int32 || t == DType::int64;
}
constexpr bool is_unsigned_integer(DType t) noexcept {
  return t == DType::uint8 || t == DType::uint16 || t == DType::uint32 || t == DType::uint64;
}
constexpr bool is_integer(DType t) noexcept {
  return is_signed_integer(t) || is_unsigned_integer(t);
}

namespace detail {
template <class T>
struct dtype_of_impl;
template <> struct dtype_of_impl<bool> { static constexpr DType value = DType::bool_; };
template <> struct dtype_of_impl<std::int8_t> { static constexpr DType value = DType::int8; };
template <> struct dtype_of_impl<std::int16_t> { static constexpr DType value = DType::int16; };
template <> struct dtype_of_impl<std::int32_t> { static constexpr DType value = DType::int32; };
template <> struct dtype_of_impl<std::int64_t> { static constexpr DType value = DType::int64; };
template <> struct dtype_of_impl<std::uint8_t> { static constexpr DType value = DType::uint8; };
template <> struct dtype_of_impl<std::uint16_t> { static constexpr DType value = DType::uint16; };
template <> struct dtype_of_impl<std::uint32_t> { static constexpr DType value = DType::uint32; };
template <> struct dtype_of_impl<std::uint64_t> { static constexpr DType value = DType::uint64; };
template <> struct dtype_of_impl<float> { static constexpr DType value = DType::float32; };
template <> struct dtype_of_impl<double> { static constexpr DType value = DType::float64; };
template <> struct dtype_of_impl<std::complex<float>> { static constexpr DType value = DType::complex64; };
template <> struct dtype_of_impl<std::complex<double>> { static constexpr DType value = DType::complex128; };
// long long is int64 on LP64 too, but there a distinct C++ type from std::int64_t (long).
struct long_long_is_int64;
struct ulong_long_is_uint64;
template <>
struct dtype_of_impl<std::conditional_t<std::is_same_v<long long, std::int64_t>, long_long_is_int64,
                                        long long>> {
  static constexpr DType value = DType::int64;
};
template <>
struct dtype_of_impl<std::conditional_t<std::is_same_v<unsigned long long, std::uint64_t>,
                                        ulong_long_is_uint64, unsigned long long>> {
  static constexpr DType value = DType::uint64;
};
template <> struct dtype_of_impl<char> {
  static constexpr DType value = static_cast<char>(-1) < 0 ? DType::int8 : DType::uint8;
};

template <class T, class = void>
struct has_dtype : std::false_type {};
template <class T>
struct has_dtype<T, std::void_t<decltype(dtype_of_impl<T>::value)>> : std::true_type {};
}  // namespace detail

/// The dtype of a C++ arithmetic type: dtype_of<float> == DType::float32.
template <class T>
inline constexpr DType dtype_of = detail::dtype_of_impl<T>::value;

/// True when T maps to a dtype.
template <class T>
inline constexpr bool has_dtype = detail::has_dtype<T>::value;

}  // namespace weft
