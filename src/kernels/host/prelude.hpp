// weft host prelude: the OpenCL C 1.2 dialect as C++20, for kernels the host backend
// compiles with the system C++ compiler. Pasted after launch_abi.hpp and before the user's
// source, which lands inside namespace weft_kernel.
//
// What the translation (src/kernels/host_translate.cpp) does at the token level, and this
// file relies on:
//   (float4)(a, b, c, d)    -> weft_make<float4>(a, b, c, d)   (a comma expression in C++)
//   v.xy, v.s01, v.lo ...   -> v.weft_swz<0, 1>(), v.weft_lo() ...
//   convert_int4_sat(x)     -> weft_convert<int4, true>(x);  as_uint(x) -> weft_as<uint>(x)
//   vload4 / vstore4        -> weft_vload<4> / weft_vstore<4>
//   __kernel void k(...)    -> static inline void k(weft_host::WorkItem weft_wi, ...)
// Everything else is macros, types and overloads below.
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#define WEFT_INLINE inline __attribute__((always_inline))

namespace weft_host {

// ---- work-items ---------------------------------------------------------------------
struct WorkItem {
  std::size_t gid[3];
  const Launch* l;
  WEFT_INLINE std::size_t global_id(unsigned d) const { return d < 3 ? gid[d] : 0; }
  WEFT_INLINE std::size_t global_size(unsigned d) const { return d < 3 ? l->gsize[d] : 1; }
  WEFT_INLINE std::size_t global_offset(unsigned d) const { return d < 3 ? l->goff[d] : 0; }
  WEFT_INLINE std::size_t local_size(unsigned d) const { return d < 3 ? l->lsize[d] : 1; }
  WEFT_INLINE std::size_t local_id(unsigned d) const {
    return d < 3 ? (gid[d] - l->goff[d]) % l->lsize[d] : 0;
  }
  WEFT_INLINE std::size_t group_id(unsigned d) const {
    return d < 3 ? (gid[d] - l->goff[d]) / l->lsize[d] : 0;
  }
  WEFT_INLINE std::size_t num_groups(unsigned d) const {
    return d < 3 ? l->gsize[d] / l->lsize[d] : 1;
  }
  WEFT_INLINE unsigned work_dim() const { return l->work_dim; }
};

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
using vec_of_t = typename vec_of<std::remove_cvref_t<A>>::type;

template <class A>
concept VecLike = !std::is_void_v<vec_of_t<A>>;
template <class A>
concept Scalar = std::is_arithmetic_v<std::remove_cvref_t<A>> ||
                 std::is_same_v<std::remove_cvref_t<A>, _Float16>;
// Operands of a vector operator: two vectors of one type, or a vector and a scalar.
template <class A, class B>
concept VecOperands = (VecLike<A> && VecLike<B> && std::is_same_v<vec_of_t<A>, vec_of_t<B>>) ||
                      (VecLike<A> && Scalar<B>) || (Scalar<A> && VecLike<B>);
template <class A, class B>
using binop_t = std::conditional_t<VecLike<A>, vec_of_t<A>, vec_of_t<B>>;

template <class T>
using int_of = std::conditional_t<
    sizeof(T) == 1, signed char,
    std::conditional_t<sizeof(T) == 2, short, std::conditional_t<sizeof(T) == 4, int, long>>>;

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
    requires(Scalar<U> && !std::is_same_v<U, T>)
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
  WEFT_INLINE decltype(auto) swz_affine(std::integer_sequence<int, I...>) & {
    return weft_swz<(I * Mul + Add)...>();
  }
  template <int Mul, int Add, int... I>
  WEFT_INLINE auto swz_affine(std::integer_sequence<int, I...>) const& {
    return weft_swz<(I * Mul + Add)...>();
  }
  WEFT_INLINE decltype(auto) weft_lo() & { return swz_affine<1, 0>(std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE decltype(auto) weft_hi() & { return swz_affine<1, half_size>(std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE decltype(auto) weft_even() & { return swz_affine<2, 0>(std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE decltype(auto) weft_odd() & { return swz_affine<2, 1>(std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE auto weft_lo() const& { return swz_affine<1, 0>(std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE auto weft_hi() const& { return swz_affine<1, half_size>(std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE auto weft_even() const& { return swz_affine<2, 0>(std::make_integer_sequence<int, half_size>{}); }
  WEFT_INLINE auto weft_odd() const& { return swz_affine<2, 1>(std::make_integer_sequence<int, half_size>{}); }

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
    constexpr int total = (0 + ... + weft_host::components<A>());
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
  if constexpr (std::is_integral_v<To> && !std::is_same_v<To, bool>) {
    if (sat) {
      if constexpr (std::is_floating_point_v<From> || std::is_same_v<From, _Float16>) {
        const double d = static_cast<double>(x);
        if (d != d) return To(0);
        if (d <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
        if (d >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
        return static_cast<To>(x);
      } else {
        using W = std::conditional_t<std::is_signed_v<From>, long long, unsigned long long>;
        if constexpr (std::is_signed_v<From> && !std::is_signed_v<To>) {
          if (x < 0) return To(0);
        }
        if constexpr (std::is_signed_v<To> && !std::is_signed_v<From>) {
          if (static_cast<unsigned long long>(x) > static_cast<unsigned long long>(std::numeric_limits<To>::max()))
            return std::numeric_limits<To>::max();
          return static_cast<To>(x);
        } else {
          if (static_cast<W>(x) > static_cast<W>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
          if constexpr (std::is_signed_v<To>) {
            if (static_cast<W>(x) < static_cast<W>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
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
    static_assert(!std::is_void_v<V> && V::size == To::size,
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
  using F = std::conditional_t<VecLike<From>, vec_of_t<From>, From>;
  const F f = x;
  static_assert(sizeof(To) == sizeof(F), "as_<type>: the two types differ in size");
  To r;
  std::memcpy(&r, &f, sizeof r);
  return r;
}

template <int N, class T>
WEFT_INLINE vec<std::remove_cv_t<T>, N> weft_vload(std::size_t offset, const volatile T* p) noexcept {
  vec<std::remove_cv_t<T>, N> r;
  for (int i = 0; i < N; ++i) r.s[i] = p[offset * N + static_cast<std::size_t>(i)];
  return r;
}
template <int N, class V, class T>
WEFT_INLINE void weft_vstore(const V& v, std::size_t offset, T* p) noexcept {
  const vec_of_t<V> vv = v;
  static_assert(vec_of_t<V>::size == N, "vstoreN needs an N-vector");
  for (int i = 0; i < N; ++i) p[offset * N + static_cast<std::size_t>(i)] = vv.s[i];
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
  using VV = std::conditional_t<VecLike<V>, vec_of_t<V>, std::conditional_t<VecLike<B>, vec_of_t<B>, vec_of_t<C>>>;
  const VV va = to_vec<VV>(a), vb = to_vec<VV>(b), vc = to_vec<VV>(c);
  vec<decltype(f(va.s[0], vb.s[0], vc.s[0])), VV::size> r;
  for (int i = 0; i < VV::size; ++i) r.s[i] = f(va.s[i], vb.s[i], vc.s[i]);
  return r;
}

template <class A>
concept Floating = std::is_floating_point_v<std::remove_cvref_t<A>> ||
                   std::is_same_v<std::remove_cvref_t<A>, _Float16>;
template <class A>
concept FloatVec = VecLike<A> && Floating<typename vec_of_t<A>::element_type>;
template <class A>
concept IntVec = VecLike<A> && std::is_integral_v<typename vec_of_t<A>::element_type>;
template <class A, class B>
concept SameVecOrScalar = VecOperands<A, B>;

}  // namespace weft_host

namespace weft_kernel {

using weft_host::vec;
using weft_host::weft_as;
using weft_host::weft_convert;
using weft_host::weft_make;
using weft_host::weft_vload;
using weft_host::weft_vstore;

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef _Float16 half;

#define WEFT_VEC_TYPES(T)                 \
  typedef weft_host::vec<T, 2> T##2;      \
  typedef weft_host::vec<T, 3> T##3;      \
  typedef weft_host::vec<T, 4> T##4;      \
  typedef weft_host::vec<T, 8> T##8;      \
  typedef weft_host::vec<T, 16> T##16;
typedef signed char weft_schar;
typedef weft_host::vec<signed char, 2> char2;
typedef weft_host::vec<signed char, 3> char3;
typedef weft_host::vec<signed char, 4> char4;
typedef weft_host::vec<signed char, 8> char8;
typedef weft_host::vec<signed char, 16> char16;
WEFT_VEC_TYPES(uchar)
WEFT_VEC_TYPES(short)
WEFT_VEC_TYPES(ushort)
WEFT_VEC_TYPES(int)
WEFT_VEC_TYPES(uint)
WEFT_VEC_TYPES(long)
WEFT_VEC_TYPES(ulong)
WEFT_VEC_TYPES(float)
WEFT_VEC_TYPES(double)
WEFT_VEC_TYPES(half)
#undef WEFT_VEC_TYPES

// The work-item of helper functions: set per work-item only when the program's non-kernel
// functions call work-item functions (kernels get theirs as a parameter of the same name).
inline thread_local weft_host::WorkItem weft_wi{};

using std::printf;

// ---- math built-ins -------------------------------------------------------------------
// Scalar overloads for float, double and half; vector versions apply them component-wise.
#define WEFT_MATH1(name, ff, dd)                                                        \
  WEFT_INLINE float name(float x) noexcept { return ff; }                               \
  WEFT_INLINE double name(double x) noexcept { return dd; }                             \
  WEFT_INLINE half name(half h) noexcept { const float x = static_cast<float>(h); return static_cast<half>(ff); } \
  template <class V>                                                                    \
    requires weft_host::FloatVec<V>                                                     \
  WEFT_INLINE weft_host::vec_of_t<V> name(const V& v) noexcept {                        \
    return weft_host::map1(v, [](auto e) { return name(e); });                          \
  }
WEFT_MATH1(acos, std::acos(x), std::acos(x))
WEFT_MATH1(acosh, std::acosh(x), std::acosh(x))
WEFT_MATH1(acospi, std::acos(x) / 3.14159265358979323846f, std::acos(x) / 3.14159265358979323846)
WEFT_MATH1(asin, std::asin(x), std::asin(x))
WEFT_MATH1(asinh, std::asinh(x), std::asinh(x))
WEFT_MATH1(asinpi, std::asin(x) / 3.14159265358979323846f, std::asin(x) / 3.14159265358979323846)
WEFT_MATH1(atan, std::atan(x), std::atan(x))
WEFT_MATH1(atanh, std::atanh(x), std::atanh(x))
WEFT_MATH1(atanpi, std::atan(x) / 3.14159265358979323846f, std::atan(x) / 3.14159265358979323846)
WEFT_MATH1(cbrt, std::cbrt(x), std::cbrt(x))
WEFT_MATH1(ceil, std::ceil(x), std::ceil(x))
WEFT_MATH1(cos, std::cos(x), std::cos(x))
WEFT_MATH1(cosh, std::cosh(x), std::cosh(x))
WEFT_MATH1(cospi, std::cos(x * 3.14159265358979323846f), std::cos(x * 3.14159265358979323846))
WEFT_MATH1(erf, std::erf(x), std::erf(x))
WEFT_MATH1(erfc, std::erfc(x), std::erfc(x))
WEFT_MATH1(exp, std::exp(x), std::exp(x))
WEFT_MATH1(exp2, std::exp2(x), std::exp2(x))
WEFT_MATH1(exp10, std::pow(10.0f, x), std::pow(10.0, x))
WEFT_MATH1(expm1, std::expm1(x), std::expm1(x))
WEFT_MATH1(fabs, std::fabs(x), std::fabs(x))
WEFT_MATH1(floor, std::floor(x), std::floor(x))
WEFT_MATH1(lgamma, std::lgamma(x), std::lgamma(x))
WEFT_MATH1(log, std::log(x), std::log(x))
WEFT_MATH1(log2, std::log2(x), std::log2(x))
WEFT_MATH1(log10, std::log10(x), std::log10(x))
WEFT_MATH1(log1p, std::log1p(x), std::log1p(x))
WEFT_MATH1(logb, std::logb(x), std::logb(x))
WEFT_MATH1(rint, std::rint(x), std::rint(x))
WEFT_MATH1(round, std::round(x), std::round(x))
WEFT_MATH1(rsqrt, 1.0f / std::sqrt(x), 1.0 / std::sqrt(x))
WEFT_MATH1(sin, std::sin(x), std::sin(x))
WEFT_MATH1(sinh, std::sinh(x), std::sinh(x))
WEFT_MATH1(sinpi, std::sin(x * 3.14159265358979323846f), std::sin(x * 3.14159265358979323846))
WEFT_MATH1(sqrt, std::sqrt(x), std::sqrt(x))
WEFT_MATH1(tan, std::tan(x), std::tan(x))
WEFT_MATH1(tanh, std::tanh(x), std::tanh(x))
WEFT_MATH1(tanpi, std::tan(x * 3.14159265358979323846f), std::tan(x * 3.14159265358979323846))
WEFT_MATH1(tgamma, std::tgamma(x), std::tgamma(x))
WEFT_MATH1(trunc, std::trunc(x), std::trunc(x))
WEFT_MATH1(degrees, x * (180.0f / 3.14159265358979323846f), x * (180.0 / 3.14159265358979323846))
WEFT_MATH1(radians, x * (3.14159265358979323846f / 180.0f), x * (3.14159265358979323846 / 180.0))
WEFT_MATH1(sign, x > 0 ? 1.0f : x < 0 ? -1.0f : x == x ? 0.0f * x : 0.0f, x > 0 ? 1.0 : x < 0 ? -1.0 : x == x ? 0.0 * x : 0.0)
WEFT_MATH1(native_cos, std::cos(x), std::cos(x))
WEFT_MATH1(native_exp, std::exp(x), std::exp(x))
WEFT_MATH1(native_exp2, std::exp2(x), std::exp2(x))
WEFT_MATH1(native_exp10, std::pow(10.0f, x), std::pow(10.0, x))
WEFT_MATH1(native_log, std::log(x), std::log(x))
WEFT_MATH1(native_log2, std::log2(x), std::log2(x))
WEFT_MATH1(native_log10, std::log10(x), std::log10(x))
WEFT_MATH1(native_recip, 1.0f / x, 1.0 / x)
WEFT_MATH1(native_rsqrt, 1.0f / std::sqrt(x), 1.0 / std::sqrt(x))
WEFT_MATH1(native_sin, std::sin(x), std::sin(x))
WEFT_MATH1(native_sqrt, std::sqrt(x), std::sqrt(x))
WEFT_MATH1(native_tan, std::tan(x), std::tan(x))
WEFT_MATH1(half_cos, std::cos(x), std::cos(x))
WEFT_MATH1(half_exp, std::exp(x), std::exp(x))
WEFT_MATH1(half_log, std::log(x), std::log(x))
WEFT_MATH1(half_recip, 1.0f / x, 1.0 / x)
WEFT_MATH1(half_rsqrt, 1.0f / std::sqrt(x), 1.0 / std::sqrt(x))
WEFT_MATH1(half_sin, std::sin(x), std::sin(x))
WEFT_MATH1(half_sqrt, std::sqrt(x), std::sqrt(x))
#undef WEFT_MATH1

#define WEFT_MATH2(name, ff, dd)                                                          \
  WEFT_INLINE float name(float x, float y) noexcept { return ff; }                        \
  WEFT_INLINE double name(double x, double y) noexcept { return dd; }                     \
  template <class A, class B>                                                             \
    requires(weft_host::VecOperands<A, B> &&                                              \
             weft_host::Floating<typename weft_host::binop_t<A, B>::element_type>)        \
  WEFT_INLINE weft_host::binop_t<A, B> name(const A& a, const B& b) noexcept {            \
    return weft_host::map2(a, b, [](auto x, auto y) { return name(x, y); });              \
  }
WEFT_MATH2(atan2, std::atan2(x, y), std::atan2(x, y))
WEFT_MATH2(atan2pi, std::atan2(x, y) / 3.14159265358979323846f, std::atan2(x, y) / 3.14159265358979323846)
WEFT_MATH2(copysign, std::copysign(x, y), std::copysign(x, y))
WEFT_MATH2(fdim, std::fdim(x, y), std::fdim(x, y))
WEFT_MATH2(fmax, std::fmax(x, y), std::fmax(x, y))
WEFT_MATH2(fmin, std::fmin(x, y), std::fmin(x, y))
WEFT_MATH2(fmod, std::fmod(x, y), std::fmod(x, y))
WEFT_MATH2(hypot, std::hypot(x, y), std::hypot(x, y))
WEFT_MATH2(nextafter, std::nextafter(x, y), std::nextafter(x, y))
WEFT_MATH2(pow, std::pow(x, y), std::pow(x, y))
WEFT_MATH2(powr, std::pow(x, y), std::pow(x, y))
WEFT_MATH2(native_powr, std::pow(x, y), std::pow(x, y))
WEFT_MATH2(half_powr, std::pow(x, y), std::pow(x, y))
WEFT_MATH2(remainder, std::remainder(x, y), std::remainder(x, y))
WEFT_MATH2(native_divide, x / y, x / y)
WEFT_MATH2(half_divide, x / y, x / y)
WEFT_MATH2(maxmag, std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : std::fmax(x, y),
           std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : std::fmax(x, y))
WEFT_MATH2(minmag, std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : std::fmin(x, y),
           std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : std::fmin(x, y))
WEFT_MATH2(step, y < x ? 0.0f : 1.0f, y < x ? 0.0 : 1.0)
#undef WEFT_MATH2

#define WEFT_MATH3(name, ff, dd)                                                             \
  WEFT_INLINE float name(float x, float y, float z) noexcept { return ff; }                  \
  WEFT_INLINE double name(double x, double y, double z) noexcept { return dd; }              \
  template <class A, class B, class C>                                                       \
    requires(weft_host::FloatVec<A> || weft_host::FloatVec<B> || weft_host::FloatVec<C>)     \
  WEFT_INLINE auto name(const A& a, const B& b, const C& c) noexcept {                       \
    return weft_host::map3(a, b, c, [](auto x, auto y, auto z) { return name(x, y, z); });   \
  }
WEFT_MATH3(fma, std::fma(x, y, z), std::fma(x, y, z))
WEFT_MATH3(mad, x * y + z, x * y + z)
WEFT_MATH3(mix, x + (y - x) * z, x + (y - x) * z)
WEFT_MATH3(smoothstep, ([&] { float t = std::fmin(std::fmax((z - x) / (y - x), 0.0f), 1.0f); return t * t * (3.0f - 2.0f * t); }()),
           ([&] { double t = std::fmin(std::fmax((z - x) / (y - x), 0.0), 1.0); return t * t * (3.0 - 2.0 * t); }()))
#undef WEFT_MATH3

WEFT_INLINE float pown(float x, int n) noexcept { return std::pow(x, static_cast<float>(n)); }
WEFT_INLINE double pown(double x, int n) noexcept { return std::pow(x, static_cast<double>(n)); }
WEFT_INLINE float rootn(float x, int n) noexcept { return std::pow(x, 1.0f / static_cast<float>(n)); }
WEFT_INLINE double rootn(double x, int n) noexcept { return std::pow(x, 1.0 / static_cast<double>(n)); }
WEFT_INLINE float ldexp(float x, int n) noexcept { return std::ldexp(x, n); }
WEFT_INLINE double ldexp(double x, int n) noexcept { return std::ldexp(x, n); }
WEFT_INLINE int ilogb(float x) noexcept { return std::ilogb(x); }
WEFT_INLINE int ilogb(double x) noexcept { return std::ilogb(x); }
WEFT_INLINE float frexp(float x, int* e) noexcept { return std::frexp(x, e); }
WEFT_INLINE double frexp(double x, int* e) noexcept { return std::frexp(x, e); }
WEFT_INLINE float modf(float x, float* i) noexcept { return std::modf(x, i); }
WEFT_INLINE double modf(double x, double* i) noexcept { return std::modf(x, i); }
WEFT_INLINE float fract(float x, float* i) noexcept { *i = std::floor(x); return std::fmin(x - *i, 0x1.fffffep-1f); }
WEFT_INLINE double fract(double x, double* i) noexcept { *i = std::floor(x); return std::fmin(x - *i, 0x1.fffffffffffffp-1); }
WEFT_INLINE float sincos(float x, float* c) noexcept { *c = std::cos(x); return std::sin(x); }
WEFT_INLINE double sincos(double x, double* c) noexcept { *c = std::cos(x); return std::sin(x); }

// ---- integer and common functions ---------------------------------------------------------
// min, max and clamp serve integers and floats; one side may be a scalar for a vector.
template <class T>
  requires weft_host::Scalar<T>
WEFT_INLINE T min(T a, T b) noexcept { return b < a ? b : a; }
template <class T>
  requires weft_host::Scalar<T>
WEFT_INLINE T max(T a, T b) noexcept { return a < b ? b : a; }
template <class T>
  requires weft_host::Scalar<T>
WEFT_INLINE T clamp(T x, T lo, T hi) noexcept { return min(max(x, lo), hi); }
template <class A, class B>
  requires weft_host::VecOperands<A, B>
WEFT_INLINE weft_host::binop_t<A, B> min(const A& a, const B& b) noexcept {
  return weft_host::map2(a, b, [](auto x, auto y) { return y < x ? y : x; });
}
template <class A, class B>
  requires weft_host::VecOperands<A, B>
WEFT_INLINE weft_host::binop_t<A, B> max(const A& a, const B& b) noexcept {
  return weft_host::map2(a, b, [](auto x, auto y) { return x < y ? y : x; });
}
template <class A, class B, class C>
  requires weft_host::VecLike<A>
WEFT_INLINE weft_host::vec_of_t<A> clamp(const A& x, const B& lo, const C& hi) noexcept {
  return min(max(x, lo), hi);
}

template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE std::make_unsigned_t<T> abs(T x) noexcept {
  using U = std::make_unsigned_t<T>;
  return x < 0 ? static_cast<U>(U(0) - static_cast<U>(x)) : static_cast<U>(x);
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE std::make_unsigned_t<T> abs_diff(T a, T b) noexcept {
  using U = std::make_unsigned_t<T>;
  return a > b ? static_cast<U>(static_cast<U>(a) - static_cast<U>(b))
               : static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T add_sat(T a, T b) noexcept {
  T r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  if constexpr (std::is_signed_v<T>) return b > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
  else return std::numeric_limits<T>::max();
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T sub_sat(T a, T b) noexcept {
  T r;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  if constexpr (std::is_signed_v<T>) return b < 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
  else return T(0);
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T hadd(T a, T b) noexcept { return static_cast<T>((a >> 1) + (b >> 1) + (a & b & 1)); }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T rhadd(T a, T b) noexcept { return static_cast<T>((a >> 1) + (b >> 1) + ((a | b) & 1)); }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T mul_hi(T a, T b) noexcept {
  if constexpr (sizeof(T) == 8) {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 64);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> (sizeof(T) * 8));
  }
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T mad_hi(T a, T b, T c) noexcept { return static_cast<T>(mul_hi(a, b) + c); }
WEFT_INLINE int mul24(int a, int b) noexcept { return a * b; }
WEFT_INLINE uint mul24(uint a, uint b) noexcept { return a * b; }
WEFT_INLINE int mad24(int a, int b, int c) noexcept { return a * b + c; }
WEFT_INLINE uint mad24(uint a, uint b, uint c) noexcept { return a * b + c; }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T clz(T x) noexcept {
  using U = std::make_unsigned_t<T>;
  const U u = static_cast<U>(x);
  if (u == 0) return static_cast<T>(sizeof(T) * 8);
  return static_cast<T>(__builtin_clzll(static_cast<unsigned long long>(u)) - (64 - static_cast<int>(sizeof(T)) * 8));
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T popcount(T x) noexcept {
  return static_cast<T>(__builtin_popcountll(static_cast<unsigned long long>(static_cast<std::make_unsigned_t<T>>(x))));
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T rotate(T v, T n) noexcept {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned bits = sizeof(T) * 8;
  const unsigned s = static_cast<unsigned>(static_cast<U>(n) % bits);
  const U u = static_cast<U>(v);
  return static_cast<T>(s ? static_cast<U>((u << s) | (u >> (bits - s))) : u);
}
#define WEFT_INT_VEC1(name)                                                        \
  template <class V>                                                               \
    requires weft_host::IntVec<V>                                                  \
  WEFT_INLINE auto name(const V& v) noexcept {                                     \
    return weft_host::map1(v, [](auto e) { return name(e); });                     \
  }
#define WEFT_INT_VEC2(name)                                                        \
  template <class A, class B>                                                      \
    requires(weft_host::VecOperands<A, B> &&                                       \
             std::is_integral_v<typename weft_host::binop_t<A, B>::element_type>)  \
  WEFT_INLINE auto name(const A& a, const B& b) noexcept {                         \
    return weft_host::map2(a, b, [](auto x, auto y) { return name(x, y); });       \
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
  requires weft_host::Floating<T>
WEFT_INLINE T dot(T a, T b) noexcept { return a * b; }
template <class A, class B>
  requires(weft_host::FloatVec<A> && weft_host::FloatVec<B>)
WEFT_INLINE auto dot(const A& a, const B& b) noexcept {
  using V = weft_host::vec_of_t<A>;
  const V va = a, vb = b;
  typename V::element_type s = 0;
  for (int i = 0; i < V::size; ++i) s += va.s[i] * vb.s[i];
  return s;
}
template <class A>
  requires(weft_host::Floating<A> || weft_host::FloatVec<A>)
WEFT_INLINE auto length(const A& a) noexcept { return sqrt(dot(a, a)); }
template <class A, class B>
  requires(weft_host::Floating<A> || weft_host::FloatVec<A>)
WEFT_INLINE auto distance(const A& a, const B& b) noexcept { return length(a - b); }
template <class A>
  requires(weft_host::Floating<A> || weft_host::FloatVec<A>)
WEFT_INLINE auto normalize(const A& a) noexcept {
  const auto l = length(a);
  return l == 0 ? weft_host::vec_of_t<A>(a) : weft_host::vec_of_t<A>(a / l);
}
template <class A, class B>
WEFT_INLINE auto fast_distance(const A& a, const B& b) noexcept { return distance(a, b); }
template <class A>
WEFT_INLINE auto fast_length(const A& a) noexcept { return length(a); }
template <class A>
WEFT_INLINE auto fast_normalize(const A& a) noexcept { return normalize(a); }
template <class A, class B>
  requires(weft_host::FloatVec<A> && weft_host::FloatVec<B>)
WEFT_INLINE weft_host::vec_of_t<A> cross(const A& a, const B& b) noexcept {
  const weft_host::vec_of_t<A> p = a, q = b;
  weft_host::vec_of_t<A> r = typename weft_host::vec_of_t<A>::element_type(0);
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
    requires weft_host::FloatVec<V>                                                      \
  WEFT_INLINE auto name(const V& v) noexcept {                                           \
    using T = typename weft_host::vec_of_t<V>::element_type;                             \
    return weft_host::map1(v, [](auto x) { return static_cast<weft_host::int_of<T>>((expr) ? -1 : 0); }); \
  }
WEFT_REL1(isnan, std::isnan(x))
WEFT_REL1(isinf, std::isinf(x))
WEFT_REL1(isfinite, std::isfinite(x))
WEFT_REL1(isnormal, std::isnormal(x))
WEFT_REL1(signbit, std::signbit(x))
#undef WEFT_REL1
#define WEFT_REL2(name, expr)                                                            \
  WEFT_INLINE int name(float x, float y) noexcept { return (expr) ? 1 : 0; }             \
  WEFT_INLINE int name(double x, double y) noexcept { return (expr) ? 1 : 0; }           \
  template <class A, class B>                                                            \
    requires(weft_host::FloatVec<A> && weft_host::VecOperands<A, B>)                     \
  WEFT_INLINE auto name(const A& a, const B& b) noexcept {                               \
    using T = typename weft_host::vec_of_t<A>::element_type;                             \
    return weft_host::map2(a, b, [](auto x, auto y) { return static_cast<weft_host::int_of<T>>((expr) ? -1 : 0); }); \
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
  requires std::is_integral_v<T>
WEFT_INLINE int any(T x) noexcept { return x < 0; }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE int all(T x) noexcept { return x < 0; }
template <class V>
  requires weft_host::IntVec<V>
WEFT_INLINE int any(const V& v) noexcept {
  const weft_host::vec_of_t<V> a = v;
  for (int i = 0; i < a.size; ++i) if (a.s[i] < 0) return 1;
  return 0;
}
template <class V>
  requires weft_host::IntVec<V>
WEFT_INLINE int all(const V& v) noexcept {
  const weft_host::vec_of_t<V> a = v;
  for (int i = 0; i < a.size; ++i) if (!(a.s[i] < 0)) return 0;
  return 1;
}
// select(a, b, c): c ? b : a, by the most significant bit of each component for vectors.
template <class T, class C>
  requires(weft_host::Scalar<T> && std::is_integral_v<C>)
WEFT_INLINE T select(T a, T b, C c) noexcept { return c ? b : a; }
template <class A, class B, class C>
  requires(weft_host::VecLike<A> && weft_host::IntVec<C>)
WEFT_INLINE weft_host::vec_of_t<A> select(const A& a, const B& b, const C& c) noexcept {
  using V = weft_host::vec_of_t<A>;
  const V va = a, vb = weft_host::to_vec<V>(b);
  const weft_host::vec_of_t<C> vc = c;
  V r;
  for (int i = 0; i < V::size; ++i) r.s[i] = vc.s[i] < 0 ? vb.s[i] : va.s[i];
  return r;
}
template <class T>
WEFT_INLINE T bitselect(T a, T b, T c) noexcept {
  if constexpr (weft_host::Floating<T>) {
    using U = std::conditional_t<sizeof(T) == 8, unsigned long, std::conditional_t<sizeof(T) == 4, unsigned, unsigned short>>;
    U ua, ub, uc, r;
    std::memcpy(&ua, &a, sizeof a);
    std::memcpy(&ub, &b, sizeof b);
    std::memcpy(&uc, &c, sizeof c);
    r = static_cast<U>((ua & ~uc) | (ub & uc));
    T out;
    std::memcpy(&out, &r, sizeof out);
    return out;
  } else {
    return (a & ~c) | (b & c);
  }
}

// ---- atomics (OpenCL 1.2: relaxed, on __global or __local int/uint/long/ulong) -------------
#define WEFT_ATOMIC_RMW(name, builtin)                                                   \
  template <class T>                                                                     \
    requires std::is_integral_v<T>                                                       \
  WEFT_INLINE T name(volatile T* p, std::type_identity_t<T> v) noexcept {               \
    return builtin(p, v, __ATOMIC_RELAXED);                                              \
  }
WEFT_ATOMIC_RMW(atomic_add, __atomic_fetch_add)
WEFT_ATOMIC_RMW(atomic_sub, __atomic_fetch_sub)
WEFT_ATOMIC_RMW(atomic_and, __atomic_fetch_and)
WEFT_ATOMIC_RMW(atomic_or, __atomic_fetch_or)
WEFT_ATOMIC_RMW(atomic_xor, __atomic_fetch_xor)
WEFT_ATOMIC_RMW(atom_add, __atomic_fetch_add)
WEFT_ATOMIC_RMW(atom_sub, __atomic_fetch_sub)
WEFT_ATOMIC_RMW(atom_and, __atomic_fetch_and)
WEFT_ATOMIC_RMW(atom_or, __atomic_fetch_or)
WEFT_ATOMIC_RMW(atom_xor, __atomic_fetch_xor)
#undef WEFT_ATOMIC_RMW
template <class T>
WEFT_INLINE T atomic_xchg(volatile T* p, std::type_identity_t<T> v) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 8, unsigned long, unsigned>;
    U uv;
    std::memcpy(&uv, &v, sizeof v);
    const U old = __atomic_exchange_n(reinterpret_cast<volatile U*>(p), uv, __ATOMIC_RELAXED);
    T out;
    std::memcpy(&out, &old, sizeof out);
    return out;
  } else {
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
  }
}
template <class T>
WEFT_INLINE T atom_xchg(volatile T* p, std::type_identity_t<T> v) noexcept { return atomic_xchg(p, v); }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atomic_inc(volatile T* p) noexcept { return __atomic_fetch_add(p, T(1), __ATOMIC_RELAXED); }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atomic_dec(volatile T* p) noexcept { return __atomic_fetch_sub(p, T(1), __ATOMIC_RELAXED); }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atom_inc(volatile T* p) noexcept { return atomic_inc(p); }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atom_dec(volatile T* p) noexcept { return atomic_dec(p); }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atomic_cmpxchg(volatile T* p, std::type_identity_t<T> cmp, std::type_identity_t<T> v) noexcept {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return cmp;
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atom_cmpxchg(volatile T* p, std::type_identity_t<T> cmp, std::type_identity_t<T> v) noexcept {
  return atomic_cmpxchg(p, cmp, v);
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atomic_min(volatile T* p, std::type_identity_t<T> v) noexcept {
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atomic_max(volatile T* p, std::type_identity_t<T> v) noexcept {
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old < v && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atom_min(volatile T* p, std::type_identity_t<T> v) noexcept { return atomic_min(p, v); }
template <class T>
  requires std::is_integral_v<T>
WEFT_INLINE T atom_max(volatile T* p, std::type_identity_t<T> v) noexcept { return atomic_max(p, v); }

// Fences order one work-item's own accesses, which the host runs in program order anyway.
// barrier() only appears in kernels the host refuses to run (see dialect.cpp); it compiles
// here so that the other kernels of the same program stay usable.
WEFT_INLINE void mem_fence(int) noexcept { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
WEFT_INLINE void read_mem_fence(int) noexcept { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
WEFT_INLINE void write_mem_fence(int) noexcept { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
WEFT_INLINE void barrier(int) noexcept {}
WEFT_INLINE void work_group_barrier(int) noexcept {}

}  // namespace weft_kernel

namespace weft_host {

template <class F>
struct kernel_traits;
template <class... P>
struct kernel_traits<void (*)(WorkItem, P...)> {
  static constexpr std::size_t arity = sizeof...(P);
  static constexpr KernelInfo info() noexcept {
    static_assert(sizeof...(P) <= 64, "a kernel may have at most 64 parameters");
    return KernelInfo{static_cast<std::uint32_t>(sizeof...(P)), {static_cast<std::uint32_t>(sizeof(P))...}};
  }
};

// Runs work-items [begin, end) of a launch. The argument values arrive as parameters, so
// they are plain values the compiler keeps in registers, and the innermost loop (over x)
// vectorizes when the kernel body allows.
template <auto Kernel, bool SetTls, class... P>
WEFT_INLINE void run_loop(const Launch& L, std::size_t begin, std::size_t end, P... a) noexcept {
  const std::size_t g0 = L.gsize[0], g1 = L.gsize[1];
  std::size_t x = begin % g0;
  const std::size_t rest = begin / g0;
  std::size_t y = rest % g1, z = rest / g1;
  std::size_t left = end - begin;
  while (left) {
    const std::size_t xe = g0 - x < left ? g0 : x + left;
    const std::size_t gy = y + L.goff[1], gz = z + L.goff[2], ox = L.goff[0];
    if (xe + ox <= static_cast<std::size_t>(INT_MAX)) {
      // Kernels write `int i = get_global_id(0)`. With a size_t counter that conversion may
      // wrap as far as the compiler knows, the addresses stop being affine and nothing
      // vectorizes; an int counter (that cannot overflow here) makes it fold away.
      const int ib = static_cast<int>(x + ox), ie = static_cast<int>(xe + ox);
      for (int i = ib; i < ie; ++i) {
        const WorkItem wi{{static_cast<std::size_t>(i), gy, gz}, &L};
        if constexpr (SetTls) ::weft_kernel::weft_wi = wi;
        Kernel(wi, a...);
      }
    } else {
      for (std::size_t i = x; i < xe; ++i) {
        const WorkItem wi{{i + ox, gy, gz}, &L};
        if constexpr (SetTls) ::weft_kernel::weft_wi = wi;
        Kernel(wi, a...);
      }
    }
    left -= xe - x;
    x = 0;
    if (++y == g1) {
      y = 0;
      ++z;
    }
  }
}

template <auto Kernel, bool SetTls, class... P, std::size_t... I>
WEFT_INLINE void run_range(void (*)(WorkItem, P...), std::index_sequence<I...>, void* const* args,
                           const Launch* lp, std::size_t begin, std::size_t end) noexcept {
  const Launch L = *lp;
  run_loop<Kernel, SetTls, std::remove_cv_t<P>...>(
      L, begin, end, *static_cast<const std::remove_cv_t<P>*>(args[I])...);
}

template <auto Kernel, bool SetTls>
inline void run(void* const* args, const Launch* l, std::size_t begin, std::size_t end) noexcept {
  run_range<Kernel, SetTls>(Kernel, std::make_index_sequence<kernel_traits<decltype(Kernel)>::arity>{},
                            args, l, begin, end);
}

template <auto Kernel>
constexpr KernelInfo info() noexcept {
  return kernel_traits<decltype(Kernel)>::info();
}

}  // namespace weft_host

// ---- the dialect's spellings --------------------------------------------------------------
// Defined last: after this point `global`, `local`, `constant` and `private` are no longer
// ordinary identifiers. host_translate.cpp #undefs them before the generated launchers.
#define __kernel
#define kernel
#define __global
#define global
#define __constant
#define constant
#define __local
#define local
#define __private
#define private
#define __read_only
#define read_only
#define __write_only
#define write_only
#define __read_write
#define read_write
#define restrict __restrict
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define get_work_dim() weft_wi.work_dim()
#define get_global_id(d) weft_wi.global_id(d)
#define get_global_size(d) weft_wi.global_size(d)
#define get_global_offset(d) weft_wi.global_offset(d)
#define get_local_id(d) weft_wi.local_id(d)
#define get_local_size(d) weft_wi.local_size(d)
#define get_group_id(d) weft_wi.group_id(d)
#define get_num_groups(d) weft_wi.num_groups(d)
#define get_enqueued_local_size(d) weft_wi.local_size(d)
#define __OPENCL_VERSION__ 120
#define __OPENCL_C_VERSION__ 120
#define CL_VERSION_1_0 100
#define CL_VERSION_1_1 110
#define CL_VERSION_1_2 120
#define __ENDIAN_LITTLE__ 1
#define __WEFT__ 1
#define WEFT_HOST 1
#define MAXFLOAT FLT_MAX
#define M_E_F 2.71828182845904523536f
#define M_LOG2E_F 1.44269504088896340736f
#define M_LOG10E_F 0.434294481903251827651f
#define M_LN2_F 0.693147180559945309417f
#define M_LN10_F 2.30258509299404568402f
#define M_PI_F 3.14159265358979323846f
#define M_PI_2_F 1.57079632679489661923f
#define M_PI_4_F 0.785398163397448309616f
#define M_1_PI_F 0.318309886183790671538f
#define M_2_PI_F 0.636619772367581343076f
#define M_2_SQRTPI_F 1.12837916709551257390f
#define M_SQRT2_F 1.41421356237309504880f
#define M_SQRT1_2_F 0.707106781186547524401f
