// The dialect core, part 3: vector literals, convert_<type>, as_<type>, vloadN/vstoreN, and
// the component-wise helpers the built-ins are written with. Pasted after core_vectors.hpp.
namespace weft_core {

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
