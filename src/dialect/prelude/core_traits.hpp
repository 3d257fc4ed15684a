// The dialect core: OpenCL C's vector types, swizzles, vector literals, conversions,
// reinterpretation, vload/vstore and the math, integer, common, geometric and relational
// built-ins, written once for every C++-based translation (the host backend's g++/clang and
// the CUDA backend's NVRTC). Six files, one concept each, pasted in this order
// (src/dialect/prelude.cpp): core_traits.hpp (this file), core_vectors.hpp,
// core_conversions.hpp, core_types.hpp, core_math.hpp, core_functions.hpp.
// It includes nothing: a backend prelude pastes it after defining
//   WEFT_INLINE        the qualifier of every function (inline + always_inline, or CUDA's)
//   WEFT_F(name)       the float version of a C math function (std::name, ::namef)
//   WEFT_D(name)       the double version
//   WEFT_HALF          (optional) the half-precision type, when the backend has one
//   weft_clz64, weft_popcount64, weft_mul_hi_u64, weft_mul_hi_s64   bit helpers
// and before its own atomics, fences and work-item functions.

// ---- the few standard traits the core needs, without <type_traits> -----------------------
namespace weft_std {
template <class T, T v>
struct integral_constant {
  static constexpr T value = v;
};
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> inline constexpr bool is_same_v = is_same<A, B>::value;
template <bool C, class A, class B> struct conditional { using type = A; };
template <class A, class B> struct conditional<false, A, B> { using type = B; };
template <bool C, class A, class B> using conditional_t = typename conditional<C, A, B>::type;
template <class T> struct remove_cv { using type = T; };
template <class T> struct remove_cv<const T> { using type = T; };
template <class T> struct remove_cv<volatile T> { using type = T; };
template <class T> struct remove_cv<const volatile T> { using type = T; };
template <class T> using remove_cv_t = typename remove_cv<T>::type;
template <class T> struct remove_ref { using type = T; };
template <class T> struct remove_ref<T&> { using type = T; };
template <class T> struct remove_ref<T&&> { using type = T; };
template <class T> using remove_cvref_t = remove_cv_t<typename remove_ref<T>::type>;
template <class T> struct type_identity { using type = T; };
template <class T> using type_identity_t = typename type_identity<T>::type;
template <class T> struct is_void : is_same<remove_cv_t<T>, void> {};
template <class T> inline constexpr bool is_void_v = is_void<T>::value;

template <class T> struct int_info { static constexpr bool integral = false; };
#define WEFT_INT_INFO(T, S, U, MIN, MAX)                                   \
  template <> struct int_info<T> {                                         \
    static constexpr bool integral = true;                                 \
    static constexpr bool is_signed = S;                                   \
    using unsigned_type = U;                                               \
    static constexpr T min() { return MIN; }                               \
    static constexpr T max() { return MAX; }                               \
  };
WEFT_INT_INFO(bool, false, bool, false, true)
WEFT_INT_INFO(char, (char)-1 < 0, unsigned char, (char)((char)-1 < 0 ? -128 : 0), (char)((char)-1 < 0 ? 127 : 255))
WEFT_INT_INFO(signed char, true, unsigned char, -128, 127)
WEFT_INT_INFO(unsigned char, false, unsigned char, 0, 255)
WEFT_INT_INFO(short, true, unsigned short, -32768, 32767)
WEFT_INT_INFO(unsigned short, false, unsigned short, 0, 65535)
WEFT_INT_INFO(int, true, unsigned int, -2147483647 - 1, 2147483647)
WEFT_INT_INFO(unsigned int, false, unsigned int, 0u, 4294967295u)
WEFT_INT_INFO(long, true, unsigned long, -9223372036854775807L - 1, 9223372036854775807L)
WEFT_INT_INFO(unsigned long, false, unsigned long, 0ul, 18446744073709551615ul)
WEFT_INT_INFO(long long, true, unsigned long long, -9223372036854775807LL - 1, 9223372036854775807LL)
WEFT_INT_INFO(unsigned long long, false, unsigned long long, 0ull, 18446744073709551615ull)
#undef WEFT_INT_INFO
template <class T> inline constexpr bool is_integral_v = int_info<remove_cv_t<T>>::integral;
template <class T> inline constexpr bool is_signed_v = int_info<remove_cv_t<T>>::is_signed;
template <class T> using make_unsigned_t = typename int_info<remove_cv_t<T>>::unsigned_type;
template <class T> struct numeric_limits {
  static constexpr T min() { return int_info<T>::min(); }
  static constexpr T max() { return int_info<T>::max(); }
};
template <class T> inline constexpr bool is_floating_point_v =
    is_same_v<remove_cv_t<T>, float> || is_same_v<remove_cv_t<T>, double>
#ifdef WEFT_HALF
    || is_same_v<remove_cv_t<T>, WEFT_HALF>
#endif
    ;
template <class T> inline constexpr bool is_arithmetic_v = is_integral_v<T> || is_floating_point_v<T>;

template <class T, T... I> struct integer_sequence {};
template <int... I> using int_sequence = integer_sequence<int, I...>;
template <int N, int... I> struct make_int_seq : make_int_seq<N - 1, N - 1, I...> {};
template <int... I> struct make_int_seq<0, I...> { using type = integer_sequence<int, I...>; };
template <class T, int N> using make_integer_sequence = typename make_int_seq<N>::type;

template <class To, class From>
WEFT_INLINE To bit_cast(const From& f) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different sizes");
  To t;
  const unsigned char* src = reinterpret_cast<const unsigned char*>(&f);
  unsigned char* dst = reinterpret_cast<unsigned char*>(&t);
  for (unsigned i = 0; i < sizeof(To); ++i) dst[i] = src[i];
  return t;
}
}  // namespace weft_std
