// weft::linalg's orthogonal decompositions on LAPACK: qr (geqrf, orgqr; ungqr for complex),
// svd and svdvals (gesdd), eigh and eigvalsh (syevd; heevd for complex), in float32, float64,
// complex64 and complex128. Matrices are transposed to column-major for LAPACK
// and its factors transposed back.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "linalg/host_stage.hpp"
#include "weft/error.hpp"
#include "weft/linalg.hpp"

namespace weft::linalg {

namespace {

using detail::la::HostStack;
using detail::la::lapack_fns;
using detail::la::make_array;
using detail::la::read_stack;
using detail::la::to_int;
using detail::la::transpose_into;
using detail::la::work_size;

template <class T>
QRResult qr_as(const Array& a, const std::string& mode) {
  HostStack<T> s = read_stack<T>(a, "qr", false);
  const auto& f = lapack_fns<T>();
  const std::int64_t m = s.rows, n = s.cols, kmin = std::min(m, n);
  const bool complete = mode == "complete", r_only = mode == "r";
  const std::int64_t qcols = complete ? m : kmin;  // Q: m x qcols
  const std::int64_t rrows = complete ? m : kmin;  // R: rrows x n
  std::vector<T> qs(static_cast<std::size_t>(s.count * m * qcols)), rs(static_cast<std::size_t>(s.count * rrows * n), T(0));
  const int im = to_int(m), in = to_int(n), ik = to_int(kmin), iq = to_int(qcols), ld = std::max(1, im);
  std::vector<T> col(static_cast<std::size_t>(m * std::max(n, qcols))), tau(static_cast<std::size_t>(std::max<std::int64_t>(kmin, 1)));
  std::vector<T> work(1);
  for (std::int64_t i = 0; i < s.count && kmin > 0; ++i) {
    transpose_into(s.matrix(i), m, n, col.data());
    int info = 0, lwork = -1;
    T q = T(0);
    f.geqrf(&im, &in, col.data(), &ld, tau.data(), &q, &lwork, &info);
    lwork = work_size(q);
    work.resize(static_cast<std::size_t>(lwork));
    f.geqrf(&im, &in, col.data(), &ld, tau.data(), work.data(), &lwork, &info);
    if (info != 0) throw InvalidArgument("qr: LAPACK geqrf failed with info " + std::to_string(info));
    T* r = rs.data() + i * rrows * n;
    for (std::int64_t row = 0; row < std::min(rrows, kmin); ++row)
      for (std::int64_t c = row; c < n; ++c) r[row * n + c] = col[static_cast<std::size_t>(c * m + row)];
    if (r_only) continue;
    lwork = -1;
    f.orgqr(&im, &iq, &ik, col.data(), &ld, tau.data(), &q, &lwork, &info);
    lwork = work_size(q);
    work.resize(static_cast<std::size_t>(lwork));
    f.orgqr(&im, &iq, &ik, col.data(), &ld, tau.data(), work.data(), &lwork, &info);
    if (info != 0) throw InvalidArgument("qr: LAPACK orgqr failed with info " + std::to_string(info));
    transpose_into(col.data(), qcols, m, qs.data() + i * m * qcols);
  }
  if (kmin == 0 && !r_only) {  // an empty matrix: Q is the identity (complete) or empty
    for (std::int64_t i = 0; i < s.count; ++i)
      for (std::int64_t d = 0; d < std::min(m, qcols); ++d) qs[static_cast<std::size_t>(i * m * qcols + d * qcols + d)] = T(1);
  }
  QRResult out;
  out.R = make_array(rs, s.batch, {rrows, n}, a.device());
  if (!r_only) out.Q = make_array(qs, s.batch, {m, qcols}, a.device());
  return out;
}

// gesdd on each matrix: S always, U and Vh for jobz 'A' (full) or 'S' (reduced). S is real
// (float32 for complex64); U and Vh have a's type.
template <class T>
SVDResult svd_as(const Array& a, char jobz) {
  using R = detail::la::real_t<T>;
  HostStack<T> s = read_stack<T>(a, jobz == 'N' ? "svdvals" : "svd", false);
  const auto& f = lapack_fns<T>();
  const std::int64_t m = s.rows, n = s.cols, k = std::min(m, n), mx = std::max(m, n);
  const std::int64_t ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
  const bool vectors = jobz != 'N';
  std::vector<R> ss(static_cast<std::size_t>(s.count * k));
  std::vector<T> us(vectors ? static_cast<std::size_t>(s.count * m * ucols) : 0);
  std::vector<T> vs(vectors ? static_cast<std::size_t>(s.count * vrows * n) : 0);
  const int im = to_int(m), in = to_int(n), ldu = std::max(1, im), ldvt = std::max(1, to_int(vrows));
  std::vector<T> col(static_cast<std::size_t>(m * n)), u(vectors ? static_cast<std::size_t>(m * ucols) : 1),
      vt(vectors ? static_cast<std::size_t>(vrows * n) : 1), work(1);
  std::vector<int> iwork(static_cast<std::size_t>(std::max<std::int64_t>(8 * k, 1)));
  // The complex routine's real workspace, LRWORK (LAPACK before 3.7 needed 7 k for jobz 'N').
  const std::int64_t lrwork = vectors ? std::max(5 * k * k + 7 * k, 2 * mx * k + 2 * k * k + k) : 7 * k;
  std::vector<R> rwork(detail::la::is_complex_v<T> ? static_cast<std::size_t>(std::max<std::int64_t>(lrwork, 1)) : 0);
  const auto gesdd = [&](R* sv, T* w, const int* lwork, int* info) {
    if constexpr (detail::la::is_complex_v<T>) {
      f.gesdd(&jobz, &im, &in, col.data(), &im, sv, u.data(), &ldu, vt.data(), &ldvt, w, lwork, rwork.data(),
              iwork.data(), info, 1);
    } else {
      f.gesdd(&jobz, &im, &in, col.data(), &im, sv, u.data(), &ldu, vt.data(), &ldvt, w, lwork, iwork.data(), info,
              1);
    }
  };
  for (std::int64_t i = 0; i < s.count; ++i) {
    if (k == 0) {
      if (jobz == 'A') {  // the identities of the empty side's partner
        for (std::int64_t d = 0; d < m; ++d) us[static_cast<std::size_t>(i * m * m + d * m + d)] = T(1);
        for (std::int64_t d = 0; d < n; ++d) vs[static_cast<std::size_t>(i * n * n + d * n + d)] = T(1);
      }
      continue;
    }
    transpose_into(s.matrix(i), m, n, col.data());
    int info = 0, lwork = -1;
    T q = T(0);
    gesdd(ss.data() + i * k, &q, &lwork, &info);
    lwork = work_size(q);
    work.resize(static_cast<std::size_t>(lwork));
    gesdd(ss.data() + i * k, work.data(), &lwork, &info);
    if (info > 0) throw LinAlgError(std::string(vectors ? "svd" : "svdvals") + ": SVD did not converge");
    if (info < 0) throw InvalidArgument("svd: LAPACK gesdd refused argument " + std::to_string(-info));
    if (vectors) {
      transpose_into(u.data(), ucols, m, us.data() + i * m * ucols);
      transpose_into(vt.data(), n, vrows, vs.data() + i * vrows * n);
    }
  }
  SVDResult out;
  out.S = make_array(ss, s.batch, {k}, a.device());
  if (vectors) {
    out.U = make_array(us, s.batch, {m, ucols}, a.device());
    out.Vh = make_array(vs, s.batch, {vrows, n}, a.device());
  }
  return out;
}

// syevd (heevd for complex T) on each matrix: real eigenvalues, eigenvectors of a's type.
template <class T>
EighResult eigh_as(const Array& a, bool upper, bool vectors) {
  using R = detail::la::real_t<T>;
  constexpr bool cx = detail::la::is_complex_v<T>;
  const char* fn = vectors ? "eigh" : "eigvalsh";
  HostStack<T> s = read_stack<T>(a, fn, true);
  const auto& f = lapack_fns<T>();
  const std::int64_t n = s.rows;
  const int in = to_int(n), ld = std::max(1, in);
  const char jobz = vectors ? 'V' : 'N';
  // The row-major buffer is the column-major transpose: its upper triangle is a's lower one.
  // For a Hermitian matrix the transpose is the conjugate, whose eigenvectors are the
  // conjugates of a's (the eigenvalues, real, are the same): conjugated back below.
  const char uplo = upper ? 'L' : 'U';
  std::vector<R> w(static_cast<std::size_t>(s.count * n)), rwork(1);
  std::vector<T> work(1);
  std::vector<T> vecs(vectors ? static_cast<std::size_t>(s.count * n * n) : 0);
  std::vector<int> iwork(1);
  for (std::int64_t i = 0; i < s.count && n > 0; ++i) {
    T* x = s.matrix(i);
    int info = 0, lwork = -1, liwork = -1, lrwork = -1, qi = 0;
    T q = T(0);
    R qrw = 0;
    const auto evd = [&](T* wk, R* rwk, int* iwk) {
      if constexpr (cx) {
        f.syevd(&jobz, &uplo, &in, x, &ld, w.data() + i * n, wk, &lwork, rwk, &lrwork, iwk, &liwork, &info, 1, 1);
      } else {
        (void)rwk;
        f.syevd(&jobz, &uplo, &in, x, &ld, w.data() + i * n, wk, &lwork, iwk, &liwork, &info, 1, 1);
      }
    };
    evd(&q, &qrw, &qi);
    lwork = work_size(q);
    lrwork = work_size(qrw);
    liwork = std::max(1, qi);
    work.resize(static_cast<std::size_t>(lwork));
    rwork.resize(static_cast<std::size_t>(lrwork));
    iwork.resize(static_cast<std::size_t>(liwork));
    evd(work.data(), rwork.data(), iwork.data());
    if (info > 0) throw LinAlgError(std::string(fn) + ": Eigenvalues did not converge");
    if (info < 0) throw InvalidArgument(std::string(fn) + ": LAPACK syevd refused argument " + std::to_string(-info));
    if (vectors) {
      T* v = vecs.data() + i * n * n;
      transpose_into(x, n, n, v);  // column-major eigenvectors -> columns
      if constexpr (cx) {
        for (std::int64_t e = 0; e < n * n; ++e) v[e] = std::conj(v[e]);
      }
    }
  }
  EighResult out;
  out.eigenvalues = make_array(w, s.batch, {n}, a.device());
  if (vectors) out.eigenvectors = make_array(vecs, s.batch, {n, n}, a.device());
  return out;
}

DType compute_dtype(const Array& a, const char* fn) { return detail::la::compute_dtype(a, fn); }

}  // namespace

QRResult qr(const Array& a, const std::string& mode) {
  if (mode != "reduced" && mode != "complete" && mode != "r") {
    throw InvalidArgument("qr: mode must be 'reduced', 'complete' or 'r', not '" + mode + "'");
  }
  return detail::la::dispatch(compute_dtype(a, "qr"), [&](auto t) { return qr_as<decltype(t)>(a, mode); });
}

SVDResult svd(const Array& a, bool full_matrices) {
  const char jobz = full_matrices ? 'A' : 'S';
  return detail::la::dispatch(compute_dtype(a, "svd"), [&](auto t) { return svd_as<decltype(t)>(a, jobz); });
}

Array svdvals(const Array& a) {
  return detail::la::dispatch(compute_dtype(a, "svdvals"), [&](auto t) { return svd_as<decltype(t)>(a, 'N').S; });
}

EighResult eigh(const Array& a, bool upper) {
  return detail::la::dispatch(compute_dtype(a, "eigh"), [&](auto t) { return eigh_as<decltype(t)>(a, upper, true); });
}

Array eigvalsh(const Array& a, bool upper) {
  return detail::la::dispatch(compute_dtype(a, "eigvalsh"),
                              [&](auto t) { return eigh_as<decltype(t)>(a, upper, false).eigenvalues; });
}

}  // namespace weft::linalg
