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
// The float type's constants (the same text serves cfloat and cdouble): machine epsilon, and
// the smallest square whose root is still normal (2^-63, 2^-511).
#define CT_EPS ((RT)(sizeof(RT) == 4 ? 1.1920928955078125e-07 : 2.220446049250313e-16))
#define CT_SQRT_MIN ((RT)(sizeof(RT) == 4 ? 1.0842021724855044e-19 : 1.4917987377742730e-154))
#define CT_PIO2 ((RT)1.57079632679489661923132169163975144)
#define CT_LN2 ((RT)0.693147180559945309417232121458176568)
// sinh and cosh after C99's csinh and ccosh (Annex G.6.2.4-5, FreeBSD's s_csinh.c structure):
// the parts' functions where finite, exp(|x|)/2 in two halves where cosh(x) alone would
// overflow, and the special values of the standard's tables. tanh by Kahan's formula (no
// overflow for large real parts), tan(z) = -i tanh(iz).
inline CT CT_sinh_signed(CT z, int odd) {
  const RT x = z.x, y = z.y;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return CT_new(sinh(x), y);
    if (fabs(x) < (RT)22) return CT_new(sinh(x) * cos(y), cosh(x) * sin(y));
    const RT h = exp((RT)0.5 * fabs(x)), sx = x < 0 ? (RT)-1 : (RT)1;
    return CT_new(sx * h * (RT)0.5 * cos(y) * h, h * (RT)0.5 * sin(y) * h);
  }
  if (x == 0) return CT_new(x, y - y);
  if (y == 0) return CT_new(x + x, y);
  if (isfinite(x)) return CT_new(y - y, y - y);
  if (isinf(x)) {
    if (!isfinite(y)) return CT_new(odd ? -fabs(x) : fabs(x), y - y);
    return CT_new(x * cos(y), (RT)INFINITY * sin(y));
  }
  return CT_new((x + x) * (y - y), (x * x) * (y - y));
}
// (sinh(+-inf + i inf or NaN) has an unspecified sign: +inf in NumPy's sinh, -inf in its sin.)
inline CT CT_sinh(CT z) { return CT_sinh_signed(z, 0); }
inline CT CT_cosh(CT z) {
  const RT x = z.x, y = z.y;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return CT_new(cosh(x), x * y);
    if (fabs(x) < (RT)22) return CT_new(cosh(x) * cos(y), sinh(x) * sin(y));
    const RT h = exp((RT)0.5 * fabs(x)), sx = x < 0 ? (RT)-1 : (RT)1;
    return CT_new(h * (RT)0.5 * cos(y) * h, sx * h * (RT)0.5 * sin(y) * h);
  }
  if (x == 0) return CT_new(y - y, (RT)0);
  if (y == 0) return CT_new(x * x, copysign((RT)0, x) * y);
  if (isfinite(x)) return CT_new(y - y, x * (y - y));
  if (isinf(x)) {
    if (!isfinite(y)) return CT_new((RT)INFINITY, x * (y - y));
    return CT_new((RT)INFINITY * cos(y), x * sin(y));
  }
  return CT_new((x * x) * (y - y), (x + x) * (y - y));
}
inline CT CT_tanh(CT z) {
  const RT x = z.x, y = z.y;
  if (isnan(x)) return CT_new(x, y == 0 ? y : x);
  if (isinf(x)) return CT_new(copysign((RT)1, x), isfinite(y) ? copysign((RT)0, sin(y) * cos(y)) : copysign((RT)0, y));
  if (!isfinite(y)) return CT_new(x == 0 ? x : y - y, y - y);
  if (fabs(x) >= (RT)22) {
    const RT e = exp(-fabs(x));
    return CT_new(copysign((RT)1, x), (RT)4 * sin(y) * cos(y) * e * e);
  }
  const RT t = tan(y), beta = (RT)1 + t * t, s = sinh(x), rho = sqrt((RT)1 + s * s);
  const RT denom = (RT)1 + beta * s * s;
  return CT_new(beta * rho * s / denom, t / denom);
}
inline CT CT_sin(CT z) { const CT w = CT_sinh_signed(CT_new(-z.y, z.x), 1); return CT_new(w.y, -w.x); }
inline CT CT_cos(CT z) { return CT_cosh(CT_new(-z.y, z.x)); }
inline CT CT_tan(CT z) { const CT w = CT_tanh(CT_new(-z.y, z.x)); return CT_new(w.y, -w.x); }
// exp(z) - 1 without the cancellation near 0 (NumPy's nc_expm1); expm1(±0 + 0i) = +0 + 0i.
inline CT CT_expm1(CT z) {
  if (!isfinite(z.x) || !isfinite(z.y)) { const CT e = CT_exp(z); return CT_new(e.x - (RT)1, e.y); }
  if (z.x == 0 && z.y == 0) return CT_new((RT)0, z.y);
  const RT h = sin(z.y * (RT)0.5);
  return CT_new(expm1(z.x) * cos(z.y) - (RT)2 * h * h, exp(z.x) * sin(z.y));
}
// NumPy's round of a complex number: each part to the nearest integer, halves to even.
inline CT CT_round(CT z) { return CT_new(rint(z.x), rint(z.y)); }
// (log1p is NumPy's nc_log1p: log|1 + z| + i arg(1 + z), the same digits as NumPy's.)
inline CT CT_log1p(CT z) { return CT_new(log(hypot(z.x + (RT)1, z.y)), atan2(z.y, z.x + (RT)1)); }
// The inverse functions after Hull, Fairgrieve and Tang's algorithm as FreeBSD's catrig.c
// arranges it (C99 Annex G.6.1-2): no z^2 (no overflow for huge |z|), no cancellation near
// the branch points, the special values of the standard's tables. asinh and acos carry the
// work; asin(z) = -i asinh(iz), acosh from acos, atan(z) = -i atanh(iz).
// f(a, b) = (hypot(a, b) - b) / 2 without the cancellation for b > 0.
inline RT CT_hft_f(RT a, RT b, RT h) {
  if (b < 0) return (h - b) * (RT)0.5;
  if (b == 0) return a * (RT)0.5;
  return a * a / (h + b) * (RT)0.5;
}
// For x, y >= 0 finite: rx = Re(acosh) of A = (|z + i| + |z - i|) / 2, and either B = y / A
// (when *usable) or the pair (*sqrt_a2my2, *new_y) whose atan2 gives asin(B) exactly.
inline RT CT_hft(RT x, RT y, int* usable, RT* b, RT* sqrt_a2my2, RT* new_y) {
  const RT eps = CT_EPS;
  const RT r = hypot(x, y + (RT)1), s = hypot(x, y - (RT)1);
  RT a = (r + s) * (RT)0.5, rx;
  if (a < (RT)1) a = (RT)1;
  if (a < (RT)10) {
    if (y == 1 && x < eps * eps / (RT)128) {
      rx = sqrt(x);
    } else if (x >= eps * fabs(y - (RT)1)) {
      const RT am1 = CT_hft_f(x, (RT)1 + y, r) + CT_hft_f(x, (RT)1 - y, s);
      rx = log1p(am1 + sqrt(am1 * (a + (RT)1)));
    } else if (y < 1) {
      rx = x / sqrt(((RT)1 - y) * ((RT)1 + y));
    } else {
      rx = log1p((y - (RT)1) + sqrt((y - (RT)1) * (y + (RT)1)));
    }
  } else {
    rx = log(a + sqrt(a * a - (RT)1));
  }
  *new_y = y;
  if (y < (RT)4 * CT_SQRT_MIN) {
    *usable = 0;
    *sqrt_a2my2 = a * ((RT)2 / eps);
    *new_y = y * ((RT)2 / eps);
    return rx;
  }
  *b = y / a;
  *usable = 1;
  if (*b > (RT)0.6417) {
    *usable = 0;
    if (y == 1 && x < eps / (RT)128) {
      *sqrt_a2my2 = sqrt(x) * sqrt((a + y) * (RT)0.5);
    } else if (x >= eps * fabs(y - (RT)1)) {
      const RT amy = CT_hft_f(x, y + (RT)1, r) + CT_hft_f(x, y - (RT)1, s);
      *sqrt_a2my2 = sqrt(amy * (a + y));
    } else if (y > 1) {
      *sqrt_a2my2 = x * ((RT)4 / eps / eps) * y / sqrt((y + (RT)1) * (y - (RT)1));
      *new_y = y * ((RT)4 / eps / eps);
    } else {
      *sqrt_a2my2 = sqrt(((RT)1 - y) * ((RT)1 + y));
    }
  }
  return rx;
}
// log(z) for |z| beyond 1/eps (infinite parts included): halved first so hypot cannot overflow.
inline CT CT_log_large(CT z) {
  return CT_new(log(hypot(z.x * (RT)0.5, z.y * (RT)0.5)) + CT_LN2, atan2(z.y, z.x));
}
inline CT CT_asinh(CT z) {
  const RT x = z.x, y = z.y, ax = fabs(x), ay = fabs(y);
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return CT_new(x, y + y);
    if (isinf(y)) return CT_new(fabs(y), x + x);
    if (y == 0) return CT_new(x + x, y);
    return CT_new(x + y, x + y);
  }
  if (ax > (RT)1 / CT_EPS || ay > (RT)1 / CT_EPS) {
    const CT w = CT_log_large(signbit(x) ? CT_neg(z) : z);
    return CT_new(copysign(w.x + CT_LN2, x), copysign(w.y, y));
  }
  if (x == 0 && y == 0) return z;
  const RT tiny = (RT)(sizeof(RT) == 4 ? 8.457279333832408e-4 : 3.650024149988857e-08) * (RT)0.25;
  if (ax < tiny && ay < tiny) return z;
  int usable;
  RT b = 0, sqrt_a2my2 = 0, new_y = 0;
  const RT rx = CT_hft(ax, ay, &usable, &b, &sqrt_a2my2, &new_y);
  const RT ry = usable ? asin(b) : atan2(new_y, sqrt_a2my2);
  return CT_new(copysign(rx, x), copysign(ry, y));
}
inline CT CT_asin(CT z) { const CT w = CT_asinh(CT_new(z.y, z.x)); return CT_new(w.y, w.x); }
inline CT CT_acos(CT z) {
  const RT x = z.x, y = z.y, ax = fabs(x), ay = fabs(y);
  const int sx = signbit(x), sy = signbit(y);
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return CT_new(y + y, -(RT)INFINITY);
    if (isinf(y)) return CT_new(x + x, -y);
    if (x == 0) return CT_new(CT_PIO2, y + y);
    return CT_new(x + y, x + y);
  }
  if (ax > (RT)1 / CT_EPS || ay > (RT)1 / CT_EPS) {
    const CT w = CT_log_large(z);
    const RT ry = w.x + CT_LN2;
    return CT_new(fabs(w.y), sy ? ry : -ry);
  }
  if (x == 1 && y == 0) return CT_new((RT)0, -y);
  const RT tiny = (RT)(sizeof(RT) == 4 ? 8.457279333832408e-4 : 3.650024149988857e-08) * (RT)0.25;
  if (ax < tiny && ay < tiny) return CT_new(CT_PIO2 - x, -y);
  int usable;
  RT b = 0, sqrt_a2mx2 = 0, new_x = 0;
  const RT ry = CT_hft(ay, ax, &usable, &b, &sqrt_a2mx2, &new_x);
  RT rx;
  if (usable) rx = sx ? acos(-b) : acos(b);
  else rx = atan2(sqrt_a2mx2, sx ? -new_x : new_x);
  return CT_new(rx, sy ? ry : -ry);
}
inline CT CT_acosh(CT z) {
  const CT w = CT_acos(z);
  if (isnan(w.x) && isnan(w.y)) return CT_new(w.y, w.x);
  if (isnan(w.x)) return CT_new(fabs(w.y), w.x);
  if (isnan(w.y)) return z.x == 0 ? CT_new(w.y, CT_PIO2) : CT_new(w.y, w.y);
  return CT_new(fabs(w.y), copysign(w.x, z.y));
}
// Re(1 / (x + iy)) = x / (x^2 + y^2) for a huge |z|, by Smith's scaling (no overflow).
inline RT CT_real_rcp(RT x, RT y) {
  if (isinf(x) || isinf(y)) return copysign((RT)0, x);
  if (fabs(x) >= fabs(y)) { const RT r = y / x; return (RT)1 / (x + y * r); }
  const RT r = x / y;
  return r / (y + x * r);
}
inline CT CT_atanh(CT z) {
  const RT x = z.x, y = z.y, ax = fabs(x), ay = fabs(y), eps = CT_EPS;
  if (y == 0 && ax <= 1) return CT_new(atanh(x), y);
  if (x == 0) return CT_new(x, atan(y));
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return CT_new(copysign((RT)0, x), y + y);
    if (isinf(y)) return CT_new(copysign((RT)0, x), copysign(CT_PIO2, y));
    return CT_new(x + y, x + y);
  }
  if (ax > (RT)1 / eps || ay > (RT)1 / eps) return CT_new(CT_real_rcp(x, y), copysign(CT_PIO2, y));
  const RT tiny = (RT)(sizeof(RT) == 4 ? 5.980199567341743e-4 : 2.5809568279517847e-08) * (RT)0.5;
  if (ax < tiny && ay < tiny) return z;
  const RT xm1 = ax - (RT)1;
  RT rx, ry;
  if (ax == 1 && ay < eps) rx = (CT_LN2 - log(ay)) * (RT)0.5;
  else rx = log1p((RT)4 * ax / (ay < CT_SQRT_MIN ? xm1 * xm1 : xm1 * xm1 + ay * ay)) * (RT)0.25;
  if (ax == 1) ry = atan2((RT)2, -ay) * (RT)0.5;
  else if (ay < eps) ry = atan2((RT)2 * ay, ((RT)1 - ax) * ((RT)1 + ax)) * (RT)0.5;
  else ry = atan2((RT)2 * ay, ((RT)1 - ax) * ((RT)1 + ax) - ay * ay) * (RT)0.5;
  return CT_new(copysign(rx, x), copysign(ry, y));
}
inline CT CT_atan(CT z) { const CT w = CT_atanh(CT_new(-z.y, z.x)); return CT_new(w.y, -w.x); }
#endif
