// The dialect core, part 6: the integer, common, geometric and relational built-ins.
// Pasted after core_math.hpp, last of the core.
namespace weft_kernel {

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

}  // namespace weft_kernel
