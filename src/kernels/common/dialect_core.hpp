// The dialect core: OpenCL C's vector types, swizzles, vector literals, conversions,
// reinterpretation, vload/vstore and the math, integer, common, geometric and relational
// built-ins, written once for every C++-based translation (the host backend's g++/clang and
// the CUDA backend's NVRTC). It includes nothing: a backend prelude pastes it after defining
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

namespace weft_core {
// ---- vector types -------------------------------------------------------------------
template <class T, int N>
struct vec;

// Storage: x, y, z, w share memory with s[] for 2-, 3- and 4-vectors (GNU anonymous structs
// in unions; both GCC and Clang define the punning). A 3-vector occupies 4 slots, as in
// OpenCL, so float3 buffers have the same layout on every backend.
template <class T, int N>
struct vec_storage {
  T s[N];
};
template <class T>
struct vec_storage<T, 2> {
  union {
    T s[2];
    struct { T x, y; };
  };
};
template <class T>
struct vec_storage<T, 3> {
  union {
    T s[4];
    struct { T x, y, z; };
  };
};
template <class T>
struct vec_storage<T, 4> {
  union {
    T s[4];
    struct { T x, y, z, w; };
  };
};

template <class R, class V, int... I>
struct swz_ref;

template <class A>
struct vec_of {
  using type = void;
};
template <class T, int N>
struct vec_of<vec<T, N>> {
  using type = vec<T, N>;
};
template <class R, class V, int... I>
struct vec_of<swz_ref<R, V, I...>> {
  using type = R;
};
template <class A>
using vec_of_t = typename vec_of<weft_std::remove_cvref_t<A>>::type;

template <class A>
concept VecLike = !weft_std::is_void_v<vec_of_t<A>>;
template <class A>
concept Scalar = weft_std::is_arithmetic_v<weft_std::remove_cvref_t<A>>;
// Operands of a vector operator: two vectors of one type, or a vector and a scalar.
template <class A, class B>
concept VecOperands = (VecLike<A> && VecLike<B> && weft_std::is_same_v<vec_of_t<A>, vec_of_t<B>>) ||
                      (VecLike<A> && Scalar<B>) || (Scalar<A> && VecLike<B>);
template <class A, class B>
using binop_t = weft_std::conditional_t<VecLike<A>, vec_of_t<A>, vec_of_t<B>>;

template <class T>
using int_of = weft_std::conditional_t<
    sizeof(T) == 1, signed char,
    weft_std::conditional_t<sizeof(T) == 2, short, weft_std::conditional_t<sizeof(T) == 4, int, long>>>;

template <class V, class A>
WEFT_INLINE V to_vec(const A& a) {
  if constexpr (VecLike<A>) {
    return V(a);
  } else {
    return V(static_cast<typename V::element_type>(a));
  }
}

template <int... I>
struct first_index {
  static constexpr int values[] = {I...};
  static constexpr int value = values[0];
};

template <class T, int N>
struct alignas(sizeof(T) * (N == 3 ? 4 : N)) vec : vec_storage<T, N> {
  using element_type = T;
  static constexpr int size = N;

  vec() = default;
  // Scalars convert to vectors implicitly, as in OpenCL C (float4 v = 0.0f;).
  WEFT_INLINE vec(T v) noexcept {
    for (int i = 0; i < N; ++i) this->s[i] = v;
  }
  template <class U>
    requires(Scalar<U> && !weft_std::is_same_v<U, T>)
  WEFT_INLINE vec(U v) noexcept : vec(static_cast<T>(v)) {}

  WEFT_INLINE T& operator[](int i) noexcept { return this->s[i]; }
  WEFT_INLINE const T& operator[](int i) const noexcept { return this->s[i]; }

  // Swizzles: one index gives the component itself, several a vector (or, on an lvalue,
  // a reference-like proxy that can be assigned to).
  template <int... I>
  WEFT_INLINE decltype(auto) weft_swz() & noexcept {
    if constexpr (sizeof...(I) == 1) {
      return (this->s[first_index<I...>::value]);
    } else {
      return swz_ref<vec<T, sizeof...(I)>, vec, I...>{*this};
    }
  }
  template <int... I>
  WEFT_INLINE auto weft_swz() const& noexcept {
    if constexpr (sizeof...(I) == 1) {
      return this->s[first_index<I...>::value];
    } else {
      vec<T, sizeof...(I)> r;
      int k = 0;
      ((r.s[k++] = this->s[I]), ...);
      return r;
    }
  }
  template <int... I>
  WEFT_INLINE auto weft_swz() && noexcept {
    return static_cast<const vec&>(*this).template weft_swz<I...>();
  }

  static constexpr int half_size = (N == 3 ? 4 : N) / 2;
  template <int Mul, int Add, int... I>
  WEFT_INLINE decltype(auto) swz_affine(weft_std::integer_sequence<int, I...>) & {
    return weft_swz<(I * Mul + Add)...>();
  }
  template <int Mul, int Add, int... I>
  WEFT_INLINE auto swz_affine(weft_std::integer_sequence<int, I...>) const& {
    return weft_swz<(I * Mul + Add)...>();
  }
  WEFT_INLINE decltype(auto) weft_lo() & { return swz_affine<1, 0>(weft_std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE decltype(auto) weft_hi() & { return swz_affine<1, half_size>(weft_std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE decltype(auto) weft_even() & { return swz_affine<2, 0>(weft_std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE decltype(auto) weft_odd() & { return swz_affine<2, 1>(weft_std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE auto weft_lo() const& { return swz_affine<1, 0>(weft_std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE auto weft_hi() const& { return swz_affine<1, half_size>(weft_std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE auto weft_even() const& { return swz_affine<2, 0>(weft_std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE auto weft_odd() const& { return swz_affine<2, 1>(weft_std::make_integer_sequence<int, half_size>{}); }

#define WEFT_VEC_COMPOUND(op)                                          \
  template <class B>                                                   \
    requires(VecLike<B> || Scalar<B>)                                  \
  WEFT_INLINE vec& operator op##=(const B& b) noexcept {                \
    *this = *this op b;                                                \
    return *this;                                                      \
  }
  WEFT_VEC_COMPOUND(+)
  WEFT_VEC_COMPOUND(-)
  WEFT_VEC_COMPOUND(*)
  WEFT_VEC_COMPOUND(/)
  WEFT_VEC_COMPOUND(%)
  WEFT_VEC_COMPOUND(&)
  WEFT_VEC_COMPOUND(|)
  WEFT_VEC_COMPOUND(^)
  WEFT_VEC_COMPOUND(<<)
  WEFT_VEC_COMPOUND(>>)
  WEFT_INLINE vec& operator++() noexcept { return *this += T(1); }
  WEFT_INLINE vec& operator--() noexcept { return *this -= T(1); }
  WEFT_INLINE vec operator++(int) noexcept { vec o = *this; *this += T(1); return o; }
  WEFT_INLINE vec operator--(int) noexcept { vec o = *this; *this -= T(1); return o; }
};

// An assignable view of some components of a vector: v.xy = (float2)(1, 2); v.s13 += 1.
template <class R, class V, int... I>
struct swz_ref {
  V& v;
  using element_type = typename R::element_type;

  WEFT_INLINE operator R() const noexcept {
    R r;
    int k = 0;
    ((r.s[k++] = v.s[I]), ...);
    return r;
  }
  WEFT_INLINE R value() const noexcept { return *this; }
  WEFT_INLINE const swz_ref& operator=(const R& r) const noexcept {
    int k = 0;
    ((v.s[I] = r.s[k++]), ...);
    return *this;
  }
  WEFT_INLINE const swz_ref& operator=(const swz_ref& o) const noexcept { return *this = o.value(); }
  template <class B>
    requires(VecLike<B> || Scalar<B>)
  WEFT_INLINE const swz_ref& operator=(const B& b) const noexcept {
    return *this = to_vec<R>(b);
  }
  WEFT_INLINE element_type operator[](int i) const noexcept { return value()[i]; }
#define WEFT_SWZ_COMPOUND(op)                                              \
  template <class B>                                                       \
    requires(VecLike<B> || Scalar<B>)                                      \
  WEFT_INLINE const swz_ref& operator op##=(const B& b) const noexcept {    \
    return *this = value() op b;                                           \
  }
  WEFT_SWZ_COMPOUND(+)
  WEFT_SWZ_COMPOUND(-)
  WEFT_SWZ_COMPOUND(*)
  WEFT_SWZ_COMPOUND(/)
  WEFT_SWZ_COMPOUND(%)
  WEFT_SWZ_COMPOUND(&)
  WEFT_SWZ_COMPOUND(|)
  WEFT_SWZ_COMPOUND(^)
  WEFT_SWZ_COMPOUND(<<)
  WEFT_SWZ_COMPOUND(>>)
};

// Arithmetic and bitwise operators, component-wise. A scalar operand is converted to the
// vector's element type, as OpenCL C does. Shift counts are taken modulo the element width.
#define WEFT_VEC_BINOP(op)                                                           \
  template <class A, class B>                                                        \
    requires VecOperands<A, B>                                                       \
  WEFT_INLINE binop_t<A, B> operator op(const A& a, const B& b) noexcept {           \
    using V = binop_t<A, B>;                                                         \
    using T = typename V::element_type;                                              \
    const V va = to_vec<V>(a), vb = to_vec<V>(b);                                    \
    V r;                                                                             \
    for (int i = 0; i < V::size; ++i) r.s[i] = static_cast<T>(va.s[i] op vb.s[i]);   \
    return r;                                                                        \
  }
WEFT_VEC_BINOP(+)
WEFT_VEC_BINOP(-)
WEFT_VEC_BINOP(*)
WEFT_VEC_BINOP(/)
WEFT_VEC_BINOP(%)
WEFT_VEC_BINOP(&)
WEFT_VEC_BINOP(|)
WEFT_VEC_BINOP(^)

#define WEFT_VEC_SHIFT(op)                                                                \
  template <class A, class B>                                                             \
    requires VecOperands<A, B>                                                            \
  WEFT_INLINE binop_t<A, B> operator op(const A& a, const B& b) noexcept {                \
    using V = binop_t<A, B>;                                                              \
    using T = typename V::element_type;                                                   \
    const V va = to_vec<V>(a), vb = to_vec<V>(b);                                         \
    V r;                                                                                  \
    for (int i = 0; i < V::size; ++i)                                                     \
      r.s[i] = static_cast<T>(va.s[i] op (vb.s[i] & static_cast<T>(sizeof(T) * 8 - 1)));  \
    return r;                                                                             \
  }
WEFT_VEC_SHIFT(<<)
WEFT_VEC_SHIFT(>>)

// Comparisons and logical operators give a signed integer vector: -1 (all bits) for true.
#define WEFT_VEC_CMP(op)                                                                  \
  template <class A, class B>                                                             \
    requires VecOperands<A, B>                                                            \
  WEFT_INLINE auto operator op(const A& a, const B& b) noexcept {                         \
    using V = binop_t<A, B>;                                                              \
    using I = int_of<typename V::element_type>;                                           \
    const V va = to_vec<V>(a), vb = to_vec<V>(b);                                         \
    vec<I, V::size> r;                                                                    \
    for (int i = 0; i < V::size; ++i) r.s[i] = static_cast<I>(-(va.s[i] op vb.s[i]));    \
    return r;                                                                             \
  }
WEFT_VEC_CMP(==)
WEFT_VEC_CMP(!=)
WEFT_VEC_CMP(<)
WEFT_VEC_CMP(>)
WEFT_VEC_CMP(<=)
WEFT_VEC_CMP(>=)
WEFT_VEC_CMP(&&)
WEFT_VEC_CMP(||)

template <class A>
  requires VecLike<A>
WEFT_INLINE vec_of_t<A> operator-(const A& a) noexcept {
  vec_of_t<A> r = a;
  for (int i = 0; i < r.size; ++i) r.s[i] = -r.s[i];
  return r;
}
template <class A>
  requires VecLike<A>
WEFT_INLINE vec_of_t<A> operator+(const A& a) noexcept {
  return a;
}
template <class A>
  requires VecLike<A>
WEFT_INLINE vec_of_t<A> operator~(const A& a) noexcept {
  vec_of_t<A> r = a;
  for (int i = 0; i < r.size; ++i) r.s[i] = ~r.s[i];
  return r;
}
template <class A>
  requires VecLike<A>
WEFT_INLINE auto operator!(const A& a) noexcept {
  using V = vec_of_t<A>;
  using I = int_of<typename V::element_type>;
  const V va = a;
  vec<I, V::size> r;
  for (int i = 0; i < V::size; ++i) r.s[i] = static_cast<I>(-(!va.s[i]));
  return r;
}

// ---- vector literals, conversions, reinterpretation -----------------------------------
template <class A>
constexpr int components() {
  if constexpr (VecLike<A>) return vec_of_t<A>::size;
  else return 1;
}

template <class V, class A>
WEFT_INLINE void append(V& r, int& k, const A& a) {
  using T = typename V::element_type;
  if constexpr (VecLike<A>) {
    const vec_of_t<A> va = a;
    for (int i = 0; i < va.size; ++i) r.s[k++] = static_cast<T>(va.s[i]);
  } else {
    r.s[k++] = static_cast<T>(a);
  }
}

// (float4)(a, b, c, d), (float4)(v.xy, 0, 1), (float4)(x): the last broadcasts.
template <class V, class... A>
WEFT_INLINE V weft_make(const A&... a) noexcept {
  if constexpr (sizeof...(A) == 1 && (Scalar<A> && ...)) {
    return (V(static_cast<typename V::element_type>(a)), ...);
  } else {
    constexpr int total = (0 + ... + weft_core::components<A>());
    static_assert(total == V::size,
                  "vector literal: the components do not add up to the vector's size");
    V r;
    int k = 0;
    (append(r, k, a), ...);
    return r;
  }
}

template <class To, class From>
WEFT_INLINE To convert_one(From x, bool sat) noexcept {
  if constexpr (weft_std::is_integral_v<To> && !weft_std::is_same_v<To, bool>) {
    if (sat) {
      if constexpr (weft_std::is_floating_point_v<From>) {
        const double d = static_cast<double>(x);
        if (d != d) return To(0);
        if (d <= static_cast<double>(weft_std::numeric_limits<To>::min())) return weft_std::numeric_limits<To>::min();
        if (d >= static_cast<double>(weft_std::numeric_limits<To>::max())) return weft_std::numeric_limits<To>::max();
        return static_cast<To>(x);
      } else {
        using W = weft_std::conditional_t<weft_std::is_signed_v<From>, long long, unsigned long long>;
        if constexpr (weft_std::is_signed_v<From> && !weft_std::is_signed_v<To>) {
          if (x < 0) return To(0);
        }
        if constexpr (weft_std::is_signed_v<To> && !weft_std::is_signed_v<From>) {
          if (static_cast<unsigned long long>(x) > static_cast<unsigned long long>(weft_std::numeric_limits<To>::max()))
            return weft_std::numeric_limits<To>::max();
          return static_cast<To>(x);
        } else {
          if (static_cast<W>(x) > static_cast<W>(weft_std::numeric_limits<To>::max())) return weft_std::numeric_limits<To>::max();
          if constexpr (weft_std::is_signed_v<To>) {
            if (static_cast<W>(x) < static_cast<W>(weft_std::numeric_limits<To>::min())) return weft_std::numeric_limits<To>::min();
          }
          return static_cast<To>(x);
        }
      }
    }
  }
  return static_cast<To>(x);
}

template <class To, bool Sat, class From>
WEFT_INLINE To weft_convert(const From& x) noexcept {
  if constexpr (VecLike<To>) {
    using V = vec_of_t<From>;
    static_assert(!weft_std::is_void_v<V> && V::size == To::size,
                  "convert_<type>N needs a vector of the same size");
    const V v = x;
    To r;
    for (int i = 0; i < To::size; ++i)
      r.s[i] = convert_one<typename To::element_type>(v.s[i], Sat);
    return r;
  } else {
    return convert_one<To>(x, Sat);
  }
}

template <class To, class From>
WEFT_INLINE To weft_as(const From& x) noexcept {
  using F = weft_std::conditional_t<VecLike<From>, vec_of_t<From>, From>;
  const F f = x;
  static_assert(sizeof(To) == sizeof(F), "as_<type>: the two types differ in size");
  return weft_std::bit_cast<To>(f);
}

template <int N, class T>
WEFT_INLINE vec<weft_std::remove_cv_t<T>, N> weft_vload(unsigned long offset, const volatile T* p) noexcept {
  vec<weft_std::remove_cv_t<T>, N> r;
  for (int i = 0; i < N; ++i) r.s[i] = p[offset * N + static_cast<unsigned long>(i)];
  return r;
}
template <int N, class V, class T>
WEFT_INLINE void weft_vstore(const V& v, unsigned long offset, T* p) noexcept {
  const vec_of_t<V> vv = v;
  static_assert(vec_of_t<V>::size == N, "vstoreN needs an N-vector");
  for (int i = 0; i < N; ++i) p[offset * N + static_cast<unsigned long>(i)] = vv.s[i];
}

template <class V, class F>
WEFT_INLINE auto map1(const V& a, F f) noexcept {
  using VV = vec_of_t<V>;
  const VV va = a;
  vec<decltype(f(va.s[0])), VV::size> r;
  for (int i = 0; i < VV::size; ++i) r.s[i] = f(va.s[i]);
  return r;
}
template <class V, class B, class F>
WEFT_INLINE auto map2(const V& a, const B& b, F f) noexcept {
  using VV = binop_t<V, B>;
  const VV va = to_vec<VV>(a), vb = to_vec<VV>(b);
  vec<decltype(f(va.s[0], vb.s[0])), VV::size> r;
  for (int i = 0; i < VV::size; ++i) r.s[i] = f(va.s[i], vb.s[i]);
  return r;
}
template <class V, class B, class C, class F>
WEFT_INLINE auto map3(const V& a, const B& b, const C& c, F f) noexcept {
  using VV = weft_std::conditional_t<VecLike<V>, vec_of_t<V>, weft_std::conditional_t<VecLike<B>, vec_of_t<B>, vec_of_t<C>>>;
  const VV va = to_vec<VV>(a), vb = to_vec<VV>(b), vc = to_vec<VV>(c);
  vec<decltype(f(va.s[0], vb.s[0], vc.s[0])), VV::size> r;
  for (int i = 0; i < VV::size; ++i) r.s[i] = f(va.s[i], vb.s[i], vc.s[i]);
  return r;
}

template <class A>
concept Floating = weft_std::is_floating_point_v<weft_std::remove_cvref_t<A>>;
template <class A>
concept FloatVec = VecLike<A> && Floating<typename vec_of_t<A>::element_type>;
template <class A>
concept IntVec = VecLike<A> && weft_std::is_integral_v<typename vec_of_t<A>::element_type>;
template <class A, class B>
concept SameVecOrScalar = VecOperands<A, B>;

// Classification without <cmath>: portable to every backend's compiler.
template <class T>
WEFT_INLINE bool is_nan(T x) noexcept { return x != x; }
template <class T>
WEFT_INLINE bool is_finite(T x) noexcept { return (x - x) == (x - x); }
template <class T>
WEFT_INLINE bool is_inf(T x) noexcept { return x == x && !is_finite(x); }
template <class T>
WEFT_INLINE bool is_normal(T x) noexcept {
  const T a = x < 0 ? -x : x;
  const T smallest = sizeof(T) == 8 ? T(2.2250738585072014e-308) : sizeof(T) == 4 ? T(1.17549435e-38f) : T(6.103515625e-05f);
  return is_finite(x) && a >= smallest;
}
template <class T>
WEFT_INLINE bool sign_bit(T x) noexcept {
  using U = weft_std::conditional_t<sizeof(T) == 8, unsigned long long, weft_std::conditional_t<sizeof(T) == 4, unsigned, unsigned short>>;
  return (weft_std::bit_cast<U>(x) >> (sizeof(T) * 8 - 1)) != 0;
}

}  // namespace weft_core

namespace weft_kernel {

#ifdef WEFT_HALF
#define WEFT_MATH1_HALF(name, ff) \
  WEFT_INLINE half name(half h) noexcept { const float x = static_cast<float>(h); return static_cast<half>(ff); }
#else
#define WEFT_MATH1_HALF(name, ff)
#endif

using weft_core::vec;
using weft_core::weft_as;
using weft_core::weft_convert;
using weft_core::weft_make;
using weft_core::weft_vload;
using weft_core::weft_vstore;

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
#ifdef WEFT_HALF
typedef WEFT_HALF half;
#endif

#define WEFT_VEC_TYPES(T)                 \
  typedef weft_core::vec<T, 2> T##2;      \
  typedef weft_core::vec<T, 3> T##3;      \
  typedef weft_core::vec<T, 4> T##4;      \
  typedef weft_core::vec<T, 8> T##8;      \
  typedef weft_core::vec<T, 16> T##16;
typedef signed char weft_schar;
typedef weft_core::vec<signed char, 2> char2;
typedef weft_core::vec<signed char, 3> char3;
typedef weft_core::vec<signed char, 4> char4;
typedef weft_core::vec<signed char, 8> char8;
typedef weft_core::vec<signed char, 16> char16;
WEFT_VEC_TYPES(uchar)
WEFT_VEC_TYPES(short)
WEFT_VEC_TYPES(ushort)
WEFT_VEC_TYPES(int)
WEFT_VEC_TYPES(uint)
WEFT_VEC_TYPES(long)
WEFT_VEC_TYPES(ulong)
WEFT_VEC_TYPES(float)
WEFT_VEC_TYPES(double)
#ifdef WEFT_HALF
WEFT_VEC_TYPES(half)
#endif
#undef WEFT_VEC_TYPES


// ---- math built-ins -------------------------------------------------------------------
// Scalar overloads for float, double and half; vector versions apply them component-wise.
#define WEFT_MATH1(name, ff, dd)                                                        \
  WEFT_INLINE float name(float x) noexcept { return ff; }                               \
  WEFT_INLINE double name(double x) noexcept { return dd; }                             \
  WEFT_MATH1_HALF(name, ff)                                                             \
  template <class V>                                                                    \
    requires weft_core::FloatVec<V>                                                     \
  WEFT_INLINE weft_core::vec_of_t<V> name(const V& v) noexcept {                        \
    return weft_core::map1(v, [](auto e) { return name(e); });                          \
  }
WEFT_MATH1(acos, WEFT_F(acos)(x), WEFT_D(acos)(x))
WEFT_MATH1(acosh, WEFT_F(acosh)(x), WEFT_D(acosh)(x))
WEFT_MATH1(acospi, WEFT_F(acos)(x) / 3.14159265358979323846f, WEFT_D(acos)(x) / 3.14159265358979323846)
WEFT_MATH1(asin, WEFT_F(asin)(x), WEFT_D(asin)(x))
WEFT_MATH1(asinh, WEFT_F(asinh)(x), WEFT_D(asinh)(x))
WEFT_MATH1(asinpi, WEFT_F(asin)(x) / 3.14159265358979323846f, WEFT_D(asin)(x) / 3.14159265358979323846)
WEFT_MATH1(atan, WEFT_F(atan)(x), WEFT_D(atan)(x))
WEFT_MATH1(atanh, WEFT_F(atanh)(x), WEFT_D(atanh)(x))
WEFT_MATH1(atanpi, WEFT_F(atan)(x) / 3.14159265358979323846f, WEFT_D(atan)(x) / 3.14159265358979323846)
WEFT_MATH1(cbrt, WEFT_F(cbrt)(x), WEFT_D(cbrt)(x))
WEFT_MATH1(ceil, WEFT_F(ceil)(x), WEFT_D(ceil)(x))
WEFT_MATH1(cos, WEFT_F(cos)(x), WEFT_D(cos)(x))
WEFT_MATH1(cosh, WEFT_F(cosh)(x), WEFT_D(cosh)(x))
WEFT_MATH1(cospi, WEFT_F(cos)(x * 3.14159265358979323846f), WEFT_D(cos)(x * 3.14159265358979323846))
WEFT_MATH1(erf, WEFT_F(erf)(x), WEFT_D(erf)(x))
WEFT_MATH1(erfc, WEFT_F(erfc)(x), WEFT_D(erfc)(x))
WEFT_MATH1(exp, WEFT_F(exp)(x), WEFT_D(exp)(x))
WEFT_MATH1(exp2, WEFT_F(exp2)(x), WEFT_D(exp2)(x))
WEFT_MATH1(exp10, WEFT_F(pow)(10.0f, x), WEFT_D(pow)(10.0, x))
WEFT_MATH1(expm1, WEFT_F(expm1)(x), WEFT_D(expm1)(x))
WEFT_MATH1(fabs, WEFT_F(fabs)(x), WEFT_D(fabs)(x))
WEFT_MATH1(floor, WEFT_F(floor)(x), WEFT_D(floor)(x))
WEFT_MATH1(lgamma, WEFT_F(lgamma)(x), WEFT_D(lgamma)(x))
WEFT_MATH1(log, WEFT_F(log)(x), WEFT_D(log)(x))
WEFT_MATH1(log2, WEFT_F(log2)(x), WEFT_D(log2)(x))
WEFT_MATH1(log10, WEFT_F(log10)(x), WEFT_D(log10)(x))
WEFT_MATH1(log1p, WEFT_F(log1p)(x), WEFT_D(log1p)(x))
WEFT_MATH1(logb, WEFT_F(logb)(x), WEFT_D(logb)(x))
WEFT_MATH1(rint, WEFT_F(rint)(x), WEFT_D(rint)(x))
WEFT_MATH1(round, WEFT_F(round)(x), WEFT_D(round)(x))
WEFT_MATH1(rsqrt, 1.0f / WEFT_F(sqrt)(x), 1.0 / WEFT_D(sqrt)(x))
WEFT_MATH1(sin, WEFT_F(sin)(x), WEFT_D(sin)(x))
WEFT_MATH1(sinh, WEFT_F(sinh)(x), WEFT_D(sinh)(x))
WEFT_MATH1(sinpi, WEFT_F(sin)(x * 3.14159265358979323846f), WEFT_D(sin)(x * 3.14159265358979323846))
WEFT_MATH1(sqrt, WEFT_F(sqrt)(x), WEFT_D(sqrt)(x))
WEFT_MATH1(tan, WEFT_F(tan)(x), WEFT_D(tan)(x))
WEFT_MATH1(tanh, WEFT_F(tanh)(x), WEFT_D(tanh)(x))
WEFT_MATH1(tanpi, WEFT_F(tan)(x * 3.14159265358979323846f), WEFT_D(tan)(x * 3.14159265358979323846))
WEFT_MATH1(tgamma, WEFT_F(tgamma)(x), WEFT_D(tgamma)(x))
WEFT_MATH1(trunc, WEFT_F(trunc)(x), WEFT_D(trunc)(x))
WEFT_MATH1(degrees, x * (180.0f / 3.14159265358979323846f), x * (180.0 / 3.14159265358979323846))
WEFT_MATH1(radians, x * (3.14159265358979323846f / 180.0f), x * (3.14159265358979323846 / 180.0))
WEFT_MATH1(sign, x > 0 ? 1.0f : x < 0 ? -1.0f : x == x ? 0.0f * x : 0.0f, x > 0 ? 1.0 : x < 0 ? -1.0 : x == x ? 0.0 * x : 0.0)
WEFT_MATH1(native_cos, WEFT_F(cos)(x), WEFT_D(cos)(x))
WEFT_MATH1(native_exp, WEFT_F(exp)(x), WEFT_D(exp)(x))
WEFT_MATH1(native_exp2, WEFT_F(exp2)(x), WEFT_D(exp2)(x))
WEFT_MATH1(native_exp10, WEFT_F(pow)(10.0f, x), WEFT_D(pow)(10.0, x))
WEFT_MATH1(native_log, WEFT_F(log)(x), WEFT_D(log)(x))
WEFT_MATH1(native_log2, WEFT_F(log2)(x), WEFT_D(log2)(x))
WEFT_MATH1(native_log10, WEFT_F(log10)(x), WEFT_D(log10)(x))
WEFT_MATH1(native_recip, 1.0f / x, 1.0 / x)
WEFT_MATH1(native_rsqrt, 1.0f / WEFT_F(sqrt)(x), 1.0 / WEFT_D(sqrt)(x))
WEFT_MATH1(native_sin, WEFT_F(sin)(x), WEFT_D(sin)(x))
WEFT_MATH1(native_sqrt, WEFT_F(sqrt)(x), WEFT_D(sqrt)(x))
WEFT_MATH1(native_tan, WEFT_F(tan)(x), WEFT_D(tan)(x))
WEFT_MATH1(half_cos, WEFT_F(cos)(x), WEFT_D(cos)(x))
WEFT_MATH1(half_exp, WEFT_F(exp)(x), WEFT_D(exp)(x))
WEFT_MATH1(half_log, WEFT_F(log)(x), WEFT_D(log)(x))
WEFT_MATH1(half_recip, 1.0f / x, 1.0 / x)
WEFT_MATH1(half_rsqrt, 1.0f / WEFT_F(sqrt)(x), 1.0 / WEFT_D(sqrt)(x))
WEFT_MATH1(half_sin, WEFT_F(sin)(x), WEFT_D(sin)(x))
WEFT_MATH1(half_sqrt, WEFT_F(sqrt)(x), WEFT_D(sqrt)(x))
#undef WEFT_MATH1

#define WEFT_MATH2(name, ff, dd)                                                          \
  WEFT_INLINE float name(float x, float y) noexcept { return ff; }                        \
  WEFT_INLINE double name(double x, double y) noexcept { return dd; }                     \
  template <class A, class B>                                                             \
    requires(weft_core::VecOperands<A, B> &&                                              \
             weft_core::Floating<typename weft_core::binop_t<A, B>::element_type>)        \
  WEFT_INLINE weft_core::binop_t<A, B> name(const A& a, const B& b) noexcept {            \
    return weft_core::map2(a, b, [](auto x, auto y) { return name(x, y); });              \
  }
WEFT_MATH2(atan2, WEFT_F(atan2)(x, y), WEFT_D(atan2)(x, y))
WEFT_MATH2(atan2pi, WEFT_F(atan2)(x, y) / 3.14159265358979323846f, WEFT_D(atan2)(x, y) / 3.14159265358979323846)
WEFT_MATH2(copysign, WEFT_F(copysign)(x, y), WEFT_D(copysign)(x, y))
WEFT_MATH2(fdim, WEFT_F(fdim)(x, y), WEFT_D(fdim)(x, y))
WEFT_MATH2(fmax, WEFT_F(fmax)(x, y), WEFT_D(fmax)(x, y))
WEFT_MATH2(fmin, WEFT_F(fmin)(x, y), WEFT_D(fmin)(x, y))
WEFT_MATH2(fmod, WEFT_F(fmod)(x, y), WEFT_D(fmod)(x, y))
WEFT_MATH2(hypot, WEFT_F(hypot)(x, y), WEFT_D(hypot)(x, y))
WEFT_MATH2(nextafter, WEFT_F(nextafter)(x, y), WEFT_D(nextafter)(x, y))
WEFT_MATH2(pow, WEFT_F(pow)(x, y), WEFT_D(pow)(x, y))
WEFT_MATH2(powr, WEFT_F(pow)(x, y), WEFT_D(pow)(x, y))
WEFT_MATH2(native_powr, WEFT_F(pow)(x, y), WEFT_D(pow)(x, y))
WEFT_MATH2(half_powr, WEFT_F(pow)(x, y), WEFT_D(pow)(x, y))
WEFT_MATH2(remainder, WEFT_F(remainder)(x, y), WEFT_D(remainder)(x, y))
WEFT_MATH2(native_divide, x / y, x / y)
WEFT_MATH2(half_divide, x / y, x / y)
WEFT_MATH2(maxmag, WEFT_F(fabs)(x) > WEFT_F(fabs)(y) ? x : WEFT_F(fabs)(y) > WEFT_F(fabs)(x) ? y : WEFT_F(fmax)(x, y),
           WEFT_D(fabs)(x) > WEFT_D(fabs)(y) ? x : WEFT_D(fabs)(y) > WEFT_D(fabs)(x) ? y : WEFT_D(fmax)(x, y))
WEFT_MATH2(minmag, WEFT_F(fabs)(x) < WEFT_F(fabs)(y) ? x : WEFT_F(fabs)(y) < WEFT_F(fabs)(x) ? y : WEFT_F(fmin)(x, y),
           WEFT_D(fabs)(x) < WEFT_D(fabs)(y) ? x : WEFT_D(fabs)(y) < WEFT_D(fabs)(x) ? y : WEFT_D(fmin)(x, y))
WEFT_MATH2(step, y < x ? 0.0f : 1.0f, y < x ? 0.0 : 1.0)
#undef WEFT_MATH2

#define WEFT_MATH3(name, ff, dd)                                                             \
  WEFT_INLINE float name(float x, float y, float z) noexcept { return ff; }                  \
  WEFT_INLINE double name(double x, double y, double z) noexcept { return dd; }              \
  template <class A, class B, class C>                                                       \
    requires(weft_core::FloatVec<A> || weft_core::FloatVec<B> || weft_core::FloatVec<C>)     \
  WEFT_INLINE auto name(const A& a, const B& b, const C& c) noexcept {                       \
    return weft_core::map3(a, b, c, [](auto x, auto y, auto z) { return name(x, y, z); });   \
  }
WEFT_MATH3(fma, WEFT_F(fma)(x, y, z), WEFT_D(fma)(x, y, z))
WEFT_MATH3(mad, x * y + z, x * y + z)
WEFT_MATH3(mix, x + (y - x) * z, x + (y - x) * z)
WEFT_MATH3(smoothstep, ([&] { float t = WEFT_F(fmin)(WEFT_F(fmax)((z - x) / (y - x), 0.0f), 1.0f); return t * t * (3.0f - 2.0f * t); }()),
           ([&] { double t = WEFT_D(fmin)(WEFT_D(fmax)((z - x) / (y - x), 0.0), 1.0); return t * t * (3.0 - 2.0 * t); }()))
#undef WEFT_MATH3

WEFT_INLINE float pown(float x, int n) noexcept { return WEFT_F(pow)(x, static_cast<float>(n)); }
WEFT_INLINE double pown(double x, int n) noexcept { return WEFT_D(pow)(x, static_cast<double>(n)); }
WEFT_INLINE float rootn(float x, int n) noexcept { return WEFT_F(pow)(x, 1.0f / static_cast<float>(n)); }
WEFT_INLINE double rootn(double x, int n) noexcept { return WEFT_D(pow)(x, 1.0 / static_cast<double>(n)); }
WEFT_INLINE float ldexp(float x, int n) noexcept { return WEFT_F(ldexp)(x, n); }
WEFT_INLINE double ldexp(double x, int n) noexcept { return WEFT_D(ldexp)(x, n); }
WEFT_INLINE int ilogb(float x) noexcept { return WEFT_F(ilogb)(x); }
WEFT_INLINE int ilogb(double x) noexcept { return WEFT_D(ilogb)(x); }
WEFT_INLINE float frexp(float x, int* e) noexcept { return WEFT_F(frexp)(x, e); }
WEFT_INLINE double frexp(double x, int* e) noexcept { return WEFT_D(frexp)(x, e); }
WEFT_INLINE float modf(float x, float* i) noexcept { return WEFT_F(modf)(x, i); }
WEFT_INLINE double modf(double x, double* i) noexcept { return WEFT_D(modf)(x, i); }
WEFT_INLINE float fract(float x, float* i) noexcept { *i = WEFT_F(floor)(x); return WEFT_F(fmin)(x - *i, 0x1.fffffep-1f); }
WEFT_INLINE double fract(double x, double* i) noexcept { *i = WEFT_D(floor)(x); return WEFT_D(fmin)(x - *i, 0x1.fffffffffffffp-1); }
WEFT_INLINE float sincos(float x, float* c) noexcept { *c = WEFT_F(cos)(x); return WEFT_F(sin)(x); }
WEFT_INLINE double sincos(double x, double* c) noexcept { *c = WEFT_D(cos)(x); return WEFT_D(sin)(x); }

// ---- integer and common functions ---------------------------------------------------------
// min, max and clamp serve integers and floats; one side may be a scalar for a vector.
template <class T>
  requires weft_core::Scalar<T>
WEFT_INLINE T min(T a, T b) noexcept { return b < a ? b : a; }
template <class T>
  requires weft_core::Scalar<T>
WEFT_INLINE T max(T a, T b) noexcept { return a < b ? b : a; }
template <class T>
  requires weft_core::Scalar<T>
WEFT_INLINE T clamp(T x, T lo, T hi) noexcept { return min(max(x, lo), hi); }
template <class A, class B>
  requires weft_core::VecOperands<A, B>
WEFT_INLINE weft_core::binop_t<A, B> min(const A& a, const B& b) noexcept {
  return weft_core::map2(a, b, [](auto x, auto y) { return y < x ? y : x; });
}
template <class A, class B>
  requires weft_core::VecOperands<A, B>
WEFT_INLINE weft_core::binop_t<A, B> max(const A& a, const B& b) noexcept {
  return weft_core::map2(a, b, [](auto x, auto y) { return x < y ? y : x; });
}
template <class A, class B, class C>
  requires weft_core::VecLike<A>
WEFT_INLINE weft_core::vec_of_t<A> clamp(const A& x, const B& lo, const C& hi) noexcept {
  return min(max(x, lo), hi);
}

template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE weft_std::make_unsigned_t<T> abs(T x) noexcept {
  using U = weft_std::make_unsigned_t<T>;
  return x < 0 ? static_cast<U>(U(0) - static_cast<U>(x)) : static_cast<U>(x);
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE weft_std::make_unsigned_t<T> abs_diff(T a, T b) noexcept {
  using U = weft_std::make_unsigned_t<T>;
  return a > b ? static_cast<U>(static_cast<U>(a) - static_cast<U>(b))
               : static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T add_sat(T a, T b) noexcept {
  using L = weft_std::numeric_limits<T>;
  if constexpr (weft_std::is_signed_v<T>) {
    if (b > 0 && a > L::max() - b) return L::max();
    if (b < 0 && a < L::min() - b) return L::min();
    return static_cast<T>(a + b);
  } else {
    const T r = static_cast<T>(a + b);
    return r < a ? L::max() : r;
  }
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T sub_sat(T a, T b) noexcept {
  using L = weft_std::numeric_limits<T>;
  if constexpr (weft_std::is_signed_v<T>) {
    if (b < 0 && a > L::max() + b) return L::max();
    if (b > 0 && a < L::min() + b) return L::min();
    return static_cast<T>(a - b);
  } else {
    return a < b ? T(0) : static_cast<T>(a - b);
  }
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T hadd(T a, T b) noexcept { return static_cast<T>((a >> 1) + (b >> 1) + (a & b & 1)); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T rhadd(T a, T b) noexcept { return static_cast<T>((a >> 1) + (b >> 1) + ((a | b) & 1)); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T mul_hi(T a, T b) noexcept {
  if constexpr (sizeof(T) == 8) {
    if constexpr (weft_std::is_signed_v<T>) return static_cast<T>(weft_core::weft_mul_hi_s64(a, b));
    else return static_cast<T>(weft_core::weft_mul_hi_u64(a, b));
  } else {
    using W = weft_std::conditional_t<weft_std::is_signed_v<T>, long long, unsigned long long>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> (sizeof(T) * 8));
  }
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T mad_hi(T a, T b, T c) noexcept { return static_cast<T>(mul_hi(a, b) + c); }
WEFT_INLINE int mul24(int a, int b) noexcept { return a * b; }
WEFT_INLINE uint mul24(uint a, uint b) noexcept { return a * b; }
WEFT_INLINE int mad24(int a, int b, int c) noexcept { return a * b + c; }
WEFT_INLINE uint mad24(uint a, uint b, uint c) noexcept { return a * b + c; }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T clz(T x) noexcept {
  using U = weft_std::make_unsigned_t<T>;
  const U u = static_cast<U>(x);
  if (u == 0) return static_cast<T>(sizeof(T) * 8);
  return static_cast<T>(weft_core::weft_clz64(static_cast<unsigned long long>(u)) - (64 - static_cast<int>(sizeof(T)) * 8));
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T popcount(T x) noexcept {
  return static_cast<T>(weft_core::weft_popcount64(static_cast<unsigned long long>(static_cast<weft_std::make_unsigned_t<T>>(x))));
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T rotate(T v, T n) noexcept {
  using U = weft_std::make_unsigned_t<T>;
  constexpr unsigned bits = sizeof(T) * 8;
  const unsigned s = static_cast<unsigned>(static_cast<U>(n) % bits);
  const U u = static_cast<U>(v);
  return static_cast<T>(s ? static_cast<U>((u << s) | (u >> (bits - s))) : u);
}
#define WEFT_INT_VEC1(name)                                                        \
  template <class V>                                                               \
    requires weft_core::IntVec<V>                                                  \
  WEFT_INLINE auto name(const V& v) noexcept {                                     \
    return weft_core::map1(v, [](auto e) { return name(e); });                     \
  }
#define WEFT_INT_VEC2(name)                                                        \
  template <class A, class B>                                                      \
    requires(weft_core::VecOperands<A, B> &&                                       \
             weft_std::is_integral_v<typename weft_core::binop_t<A, B>::element_type>)  \
  WEFT_INLINE auto name(const A& a, const B& b) noexcept {                         \
    return weft_core::map2(a, b, [](auto x, auto y) { return name(x, y); });       \
  }
WEFT_INT_VEC1(abs)
WEFT_INT_VEC1(clz)
WEFT_INT_VEC1(popcount)
WEFT_INT_VEC2(abs_diff)
WEFT_INT_VEC2(add_sat)
WEFT_INT_VEC2(sub_sat)
WEFT_INT_VEC2(hadd)
WEFT_INT_VEC2(rhadd)
WEFT_INT_VEC2(mul_hi)
WEFT_INT_VEC2(rotate)
#undef WEFT_INT_VEC1
#undef WEFT_INT_VEC2

// ---- geometric functions ----------------------------------------------------------------
template <class T>
  requires weft_core::Floating<T>
WEFT_INLINE T dot(T a, T b) noexcept { return a * b; }
template <class A, class B>
  requires(weft_core::FloatVec<A> && weft_core::FloatVec<B>)
WEFT_INLINE auto dot(const A& a, const B& b) noexcept {
  using V = weft_core::vec_of_t<A>;
  const V va = a, vb = b;
  typename V::element_type s = 0;
  for (int i = 0; i < V::size; ++i) s += va.s[i] * vb.s[i];
  return s;
}
template <class A>
  requires(weft_core::Floating<A> || weft_core::FloatVec<A>)
WEFT_INLINE auto length(const A& a) noexcept { return sqrt(dot(a, a)); }
template <class A, class B>
  requires(weft_core::Floating<A> || weft_core::FloatVec<A>)
WEFT_INLINE auto distance(const A& a, const B& b) noexcept { return length(a - b); }
template <class A>
  requires(weft_core::Floating<A> || weft_core::FloatVec<A>)
WEFT_INLINE auto normalize(const A& a) noexcept {
  const auto l = length(a);
  return l == 0 ? weft_core::vec_of_t<A>(a) : weft_core::vec_of_t<A>(a / l);
}
template <class A, class B>
WEFT_INLINE auto fast_distance(const A& a, const B& b) noexcept { return distance(a, b); }
template <class A>
WEFT_INLINE auto fast_length(const A& a) noexcept { return length(a); }
template <class A>
WEFT_INLINE auto fast_normalize(const A& a) noexcept { return normalize(a); }
template <class A, class B>
  requires(weft_core::FloatVec<A> && weft_core::FloatVec<B>)
WEFT_INLINE weft_core::vec_of_t<A> cross(const A& a, const B& b) noexcept {
  const weft_core::vec_of_t<A> p = a, q = b;
  weft_core::vec_of_t<A> r = typename weft_core::vec_of_t<A>::element_type(0);
  r.s[0] = p.s[1] * q.s[2] - p.s[2] * q.s[1];
  r.s[1] = p.s[2] * q.s[0] - p.s[0] * q.s[2];
  r.s[2] = p.s[0] * q.s[1] - p.s[1] * q.s[0];
  return r;
}

// ---- relational functions -----------------------------------------------------------------
// Scalars give int 1/0; vectors give -1/0 in a signed vector of the element's width.
#define WEFT_REL1(name, expr)                                                            \
  WEFT_INLINE int name(float x) noexcept { return (expr) ? 1 : 0; }                      \
  WEFT_INLINE int name(double x) noexcept { return (expr) ? 1 : 0; }                     \
  template <class V>                                                                     \
    requires weft_core::FloatVec<V>                                                      \
  WEFT_INLINE auto name(const V& v) noexcept {                                           \
    using T = typename weft_core::vec_of_t<V>::element_type;                             \
    return weft_core::map1(v, [](auto x) { return static_cast<weft_core::int_of<T>>((expr) ? -1 : 0); }); \
  }
WEFT_REL1(isnan, weft_core::is_nan(x))
WEFT_REL1(isinf, weft_core::is_inf(x))
WEFT_REL1(isfinite, weft_core::is_finite(x))
WEFT_REL1(isnormal, weft_core::is_normal(x))
WEFT_REL1(signbit, weft_core::sign_bit(x))
#undef WEFT_REL1
#define WEFT_REL2(name, expr)                                                            \
  WEFT_INLINE int name(float x, float y) noexcept { return (expr) ? 1 : 0; }             \
  WEFT_INLINE int name(double x, double y) noexcept { return (expr) ? 1 : 0; }           \
  template <class A, class B>                                                            \
    requires(weft_core::FloatVec<A> && weft_core::VecOperands<A, B>)                     \
  WEFT_INLINE auto name(const A& a, const B& b) noexcept {                               \
    using T = typename weft_core::vec_of_t<A>::element_type;                             \
    return weft_core::map2(a, b, [](auto x, auto y) { return static_cast<weft_core::int_of<T>>((expr) ? -1 : 0); }); \
  }
WEFT_REL2(isequal, x == y)
WEFT_REL2(isnotequal, x != y)
WEFT_REL2(isgreater, x > y)
WEFT_REL2(isgreaterequal, x >= y)
WEFT_REL2(isless, x < y)
WEFT_REL2(islessequal, x <= y)
WEFT_REL2(islessgreater, x < y || x > y)
WEFT_REL2(isordered, x == x && y == y)
WEFT_REL2(isunordered, x != x || y != y)
#undef WEFT_REL2

template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE int any(T x) noexcept { return x < 0; }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE int all(T x) noexcept { return x < 0; }
template <class V>
  requires weft_core::IntVec<V>
WEFT_INLINE int any(const V& v) noexcept {
  const weft_core::vec_of_t<V> a = v;
  for (int i = 0; i < a.size; ++i) if (a.s[i] < 0) return 1;
  return 0;
}
template <class V>
  requires weft_core::IntVec<V>
WEFT_INLINE int all(const V& v) noexcept {
  const weft_core::vec_of_t<V> a = v;
  for (int i = 0; i < a.size; ++i) if (!(a.s[i] < 0)) return 0;
  return 1;
}
// select(a, b, c): c ? b : a, by the most significant bit of each component for vectors.
template <class T, class C>
  requires(weft_core::Scalar<T> && weft_std::is_integral_v<C>)
WEFT_INLINE T select(T a, T b, C c) noexcept { return c ? b : a; }
template <class A, class B, class C>
  requires(weft_core::VecLike<A> && weft_core::IntVec<C>)
WEFT_INLINE weft_core::vec_of_t<A> select(const A& a, const B& b, const C& c) noexcept {
  using V = weft_core::vec_of_t<A>;
  const V va = a, vb = weft_core::to_vec<V>(b);
  const weft_core::vec_of_t<C> vc = c;
  V r;
  for (int i = 0; i < V::size; ++i) r.s[i] = vc.s[i] < 0 ? vb.s[i] : va.s[i];
  return r;
}
template <class T>
WEFT_INLINE T bitselect(T a, T b, T c) noexcept {
  if constexpr (weft_core::Floating<T>) {
    using U = weft_std::conditional_t<sizeof(T) == 8, unsigned long, weft_std::conditional_t<sizeof(T) == 4, unsigned, unsigned short>>;
    const U ua = weft_std::bit_cast<U>(a), ub = weft_std::bit_cast<U>(b), uc = weft_std::bit_cast<U>(c);
    return weft_std::bit_cast<T>(static_cast<U>((ua & ~uc) | (ub & uc)));
  } else {
    return (a & ~c) | (b & c);
  }
}

#undef WEFT_MATH1_HALF
}  // namespace weft_kernel
