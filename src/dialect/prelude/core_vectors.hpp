// The dialect core, part 2: OpenCL C's vector types (vec<T, N>), swizzle views and the
// component-wise operators. Pasted after core_traits.hpp (see there).
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

}  // namespace weft_core
