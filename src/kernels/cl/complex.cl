// The dialect's complex numbers: CT (cfloat, cdouble) is RT2 (float2, double2) holding the
// real part in .x and the imaginary part in .y, NumPy's layout. OpenCL C has no overloading,
// so each function carries its type's name (PyOpenCL's spelling: cfloat_mul, cdouble_abs ...;
// cfloat_t and cdouble_t name the types too). src/array/complex_codegen.cpp pastes this
// text once per type, CT and RT replaced; the results follow NumPy's (npymath's) formulas,
// special values included.
#ifndef WEFT_COMPLEX_CT
#define WEFT_COMPLEX_CT
typedef RT2 CT;
typedef RT2 CT_t;
inline CT CT_new(RT re, RT im) { CT z; z.x = re; z.y = im; return z; }
inline CT CT_fromreal(RT re) { return CT_new(re, (RT)0); }
inline RT CT_real(CT z) { return z.x; }
inline RT CT_imag(CT z) { return z.y; }
inline CT CT_conj(CT z) { return CT_new(z.x, -z.y); }
inline CT CT_neg(CT z) { return CT_new(-z.x, -z.y); }
inline CT CT_add(CT a, CT b) { return CT_new(a.x + b.x, a.y + b.y); }
inline CT CT_sub(CT a, CT b) { return CT_new(a.x - b.x, a.y - b.y); }
inline CT CT_mul(CT a, CT b) { return CT_new(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
inline CT CT_mulr(CT a, RT b) { return CT_new(a.x * b, a.y * b); }
inline int CT_eq(CT a, CT b) { return a.x == b.x && a.y == b.y; }
inline int CT_nonzero(CT a) { return a.x != 0 || a.y != 0; }
inline int CT_isnan(CT a) { return isnan(a.x) || isnan(a.y); }
inline int CT_isinf(CT a) { return isinf(a.x) || isinf(a.y); }
inline int CT_isfinite(CT a) { return isfinite(a.x) && isfinite(a.y); }
// |z| without overflow or underflow in the squares (npy_cabs is hypot).
inline RT CT_abs(CT z) { return hypot(z.x, z.y); }
inline RT CT_arg(CT z) { return atan2(z.y, z.x); }
// Smith's algorithm, as NumPy's complex division (a zero divisor gives inf or nan parts).
inline CT CT_div(CT a, CT b) {
  const RT br = fabs(b.x), bi = fabs(b.y);
  if (br >= bi) {
    if (br == 0 && bi == 0) return CT_new(a.x / br, a.y / br);
    const RT rat = b.y / b.x;
    const RT scl = (RT)1 / (b.x + b.y * rat);
    return CT_new((a.x + a.y * rat) * scl, (a.y - a.x * rat) * scl);
  }
  const RT rat = b.x / b.y;
  const RT scl = (RT)1 / (b.y + b.x * rat);
  return CT_new((a.x * rat + a.y) * scl, (a.y * rat - a.x) * scl);
}
// NumPy's reciprocal of a complex number.
inline CT CT_rcp(CT z) {
  if (fabs(z.y) <= fabs(z.x)) {
    const RT r = z.y / z.x;
    const RT d = z.x + z.y * r;
    return CT_new((RT)1 / d, -r / d);
  }
  const RT r = z.x / z.y;
  const RT d = z.x * r + z.y;
  return CT_new(r / d, (RT)-1 / d);
}
// NumPy 2's sign: z / |z|, 0 for 0; an infinite part gives its direction, both infinite NaN.
inline CT CT_sign(CT z) {
  const RT a = hypot(z.x, z.y);
  if (a == 0) return CT_new((RT)0, (RT)0);
  if (isnan(a)) return CT_new(a, a);
  if (isinf(a)) {
    if (isinf(z.x)) {
      if (isinf(z.y)) return CT_new((RT)NAN, (RT)NAN);
      return CT_new(z.x > 0 ? (RT)1 : (RT)-1, (RT)0);
    }
    return CT_new((RT)0, z.y > 0 ? (RT)1 : (RT)-1);
  }
  return CT_new(z.x / a, z.y / a);
}
// C99's cexp (npymath's npy_cexp): the special values of Annex G.
inline CT CT_exp(CT z) {
  const RT r = z.x, i = z.y;
  if (isfinite(r)) {
    if (i == 0) return CT_new(exp(r), i);
    const RT x = exp(r);
    return CT_new(x * cos(i), x * sin(i));
  }
  if (isnan(r)) return i == 0 ? z : CT_new(r, r);
  if (r > 0) {
    if (i == 0) return z;
    if (isfinite(i)) return CT_new(r * cos(i), r * sin(i));
    return CT_new(r, i - i);
  }
  if (isfinite(i)) {
    const RT x = exp(r);
    return CT_new(x * cos(i), x * sin(i));
  }
  return CT_new((RT)0, (RT)0);
}
// log|z| + i arg z; near |z| = 1 through log1p, where log(|z|) would lose the digits.
inline CT CT_log(CT z) {
  const RT ax = fabs(z.x), ay = fabs(z.y);
  const RT h = hypot(ax, ay);
  RT re = log(h);
  if (h > (RT)0.71 && h < (RT)1.73) {
    const RT big = fmax(ax, ay), small = fmin(ax, ay);
    re = (RT)0.5 * log1p((big - (RT)1) * (big + (RT)1) + small * small);
  }
  return CT_new(re, atan2(z.y, z.x));
}
inline CT CT_log10(CT z) { return CT_mulr(CT_log(z), (RT)0.434294481903251827651128918916605082); }
inline CT CT_log2(CT z) { return CT_mulr(CT_log(z), (RT)1.44269504088896340735992468100189214); }
// C99's csqrt (npymath's npy_csqrt, from FreeBSD): special values, and scaled where a part is
// so large that |z| + |re| would overflow.
inline CT CT_sqrt(CT z) {
  RT a = z.x, b = z.y;
  if (a == 0 && b == 0) return CT_new((RT)0, b);
  if (isinf(b)) return CT_new((RT)INFINITY, b);
  if (isnan(a)) return CT_new(a, (b - b) / (b - b));
  if (isinf(a)) {
    if (signbit(a)) return CT_new(fabs(b - b), copysign(a, b));
    return CT_new(a, copysign(b - b, b));
  }
  const int scale = fabs(a) >= (RT)(sizeof(RT) == 4 ? 7.5e37 : 7.4e307) || fabs(b) >= (RT)(sizeof(RT) == 4 ? 7.5e37 : 7.4e307);
  if (scale) { a *= (RT)0.25; b *= (RT)0.25; }
  CT r;
  if (a >= 0) {
    const RT t = sqrt((a + hypot(a, b)) * (RT)0.5);
    r = CT_new(t, b / (2 * t));
  } else {
    const RT t = sqrt((-a + hypot(a, b)) * (RT)0.5);
    r = CT_new(fabs(b) / (2 * t), copysign(t, b));
  }
  return scale ? CT_mulr(r, (RT)2) : r;
}
// NumPy's power: 1 for a zero exponent, 0 for 0 to a power of positive real part (NaN for
// the other powers of 0), integral real exponents below 100 by repeated multiplication, else
// exp(b log a).
inline CT CT_pow(CT a, CT b) {
  if (b.x == 0 && b.y == 0) return CT_new((RT)1, (RT)0);
  if (a.x == 0 && a.y == 0) {
    if (b.x > 0) return CT_new((RT)0, (RT)0);
    return CT_new((RT)NAN, (RT)NAN);
  }
  if (b.y == 0 && b.x == floor(b.x) && fabs(b.x) < 100) {
    int n = (int)b.x;
    if (n == 1) return a;
    if (n == 2) return CT_mul(a, a);
    if (n == 3) return CT_mul(CT_mul(a, a), a);
    const int negative = n < 0;
    if (negative) n = -n;
    CT p = CT_new((RT)1, (RT)0), x = a;
    int mask = 1;
    while (1) {
      if (n & mask) p = CT_mul(p, x);
      mask <<= 1;
      if (n < mask || mask <= 0) break;
      x = CT_mul(x, x);
    }
    return negative ? CT_div(CT_new((RT)1, (RT)0), p) : p;
  }
  return CT_exp(CT_mul(b, CT_log(a)));
}
// sin, cos, sinh, cosh from the parts' functions; tanh by Kahan's formula (C99's ctanh:
// no overflow for large real parts), tan(z) = -i tanh(iz).
inline CT CT_sinh(CT z) { return CT_new(sinh(z.x) * cos(z.y), cosh(z.x) * sin(z.y)); }
inline CT CT_cosh(CT z) {
  if (z.y == 0) return CT_new(cosh(z.x), z.x * z.y);
  return CT_new(cosh(z.x) * cos(z.y), sinh(z.x) * sin(z.y));
}
inline CT CT_tanh(CT z) {
  const RT x = z.x, y = z.y;
  if (isnan(x)) return CT_new(x, y == 0 ? y : x);
  if (isinf(x)) return CT_new(copysign((RT)1, x), isfinite(y) ? copysign((RT)0, sin(y) * cos(y)) : copysign((RT)0, y));
  if (!isfinite(y)) return CT_new(y - y, y - y);
  if (fabs(x) >= (RT)22) {
    const RT e = exp(-fabs(x));
    return CT_new(copysign((RT)1, x), (RT)4 * sin(y) * cos(y) * e * e);
  }
  const RT t = tan(y), beta = (RT)1 + t * t, s = sinh(x), rho = sqrt((RT)1 + s * s);
  const RT denom = (RT)1 + beta * s * s;
  return CT_new(beta * rho * s / denom, t / denom);
}
inline CT CT_sin(CT z) { const CT w = CT_sinh(CT_new(-z.y, z.x)); return CT_new(w.y, -w.x); }
inline CT CT_cos(CT z) { return CT_cosh(CT_new(-z.y, z.x)); }
inline CT CT_tan(CT z) { const CT w = CT_tanh(CT_new(-z.y, z.x)); return CT_new(w.y, -w.x); }
// exp(z) - 1 without the cancellation near 0 (NumPy's nc_expm1).
inline CT CT_expm1(CT z) {
  if (!isfinite(z.x) || !isfinite(z.y)) { const CT e = CT_exp(z); return CT_new(e.x - (RT)1, e.y); }
  const RT h = sin(z.y * (RT)0.5);
  return CT_new(expm1(z.x) * cos(z.y) - (RT)2 * h * h, exp(z.x) * sin(z.y));
}
// (log1p is NumPy's nc_log1p: log|1 + z| + i arg(1 + z), the same digits as NumPy's.)
inline CT CT_log1p(CT z) { return CT_new(log(hypot(z.x + (RT)1, z.y)), atan2(z.y, z.x + (RT)1)); }
// The inverse functions by their principal-branch formulas (NumPy's branch cuts), odd ones
// taken on the right half-plane and reflected: asinh(z) = log(z + sqrt(z^2 + 1)),
// acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1)), atanh(z) = (log(1 + z) - log(1 - z)) / 2 (its
// parts: log1p(4x / ((1 - x)^2 + y^2)) / 4, atan2(2y, (1 - x)(1 + x) - y^2) / 2),
// asin(z) = -i asinh(iz), acos(z) = pi/2 - asin(z), atan(z) = -i atanh(iz). (Within a few
// ulp of NumPy's away from the branch cuts and from huge arguments, where C99's algorithms
// avoid the overflow of z^2.)
inline CT CT_asinh(CT z) {
  const int flip = signbit(z.x);
  const CT w = flip ? CT_neg(z) : z;
  const CT w2 = CT_mul(w, w);
  // (+ 1 on the real part only: adding 1 + 0i would turn a -0 imaginary part into +0.)
  const CT root = CT_sqrt(CT_new(w2.x + (RT)1, w2.y));
  // log(w + root) as log1p(w + w^2 / (1 + root)): no cancellation near 0.
  const CT u = CT_add(w, CT_div(w2, CT_new(root.x + (RT)1, root.y)));
  const CT r = CT_new((RT)0.5 * log1p(u.x * ((RT)2 + u.x) + u.y * u.y), atan2(u.y, (RT)1 + u.x));
  return flip ? CT_neg(r) : r;
}
inline CT CT_acosh(CT z) {
  const CT a = CT_sqrt(CT_new(z.x + (RT)1, z.y)), b = CT_sqrt(CT_new(z.x - (RT)1, z.y));
  return CT_log(CT_add(z, CT_mul(a, b)));
}
inline CT CT_atanh(CT z) {
  const RT x = z.x, y = z.y;
  if (!isfinite(x) || !isfinite(y)) return CT_mulr(CT_sub(CT_log1p(z), CT_log1p(CT_neg(z))), (RT)0.5);
  const RT d = ((RT)1 - x) * ((RT)1 - x) + y * y;
  return CT_new((RT)0.25 * log1p((RT)4 * x / d), (RT)0.5 * atan2((RT)2 * y, ((RT)1 - x) * ((RT)1 + x) - y * y));
}
inline CT CT_asin(CT z) { const CT w = CT_asinh(CT_new(-z.y, z.x)); return CT_new(w.y, -w.x); }
inline CT CT_acos(CT z) {
  const CT w = CT_asin(z);
  return CT_new((RT)1.57079632679489661923132169163975144 - w.x, -w.y);
}
inline CT CT_atan(CT z) { const CT w = CT_atanh(CT_new(-z.y, z.x)); return CT_new(w.y, -w.x); }
#endif
