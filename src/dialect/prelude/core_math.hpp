// The dialect core, part 5: the math built-ins (float, double and half scalars, and their
// vectors). Pasted after core_types.hpp.
namespace weft_kernel {

#ifdef WEFT_HALF
#define WEFT_MATH1_HALF(name, ff) \
  WEFT_INLINE half name(half h) noexcept { const float x = static_cast<float>(h); return static_cast<half>(ff); }
#else
#define WEFT_MATH1_HALF(name, ff)
#endif

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

#undef WEFT_MATH1_HALF
}  // namespace weft_kernel
