// weft::linalg's LU- and Cholesky-based routines on LAPACK (gesv, getrf, potrf; the c/z ones
// for complex matrices): solve, inv, det, slogdet, cholesky. Row-major matrices go to LAPACK as the column-major transpose where
// that answers the same question (det, cholesky with the other triangle) and transposed
// otherwise (solve, inv).
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
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

DType common_dtype(const Array& a, const Array& b, const char* fn) {
  // float32 with complex64 stays complex64, float64 with complex64 becomes complex128 (NumPy's).
  return result_type(detail::la::compute_dtype(a, fn), detail::la::compute_dtype(b, fn));
}

template <class T>
Array solve_as(const Array& a_in, const Array& b_in) {
  // NumPy 2: b is a vector only when 1-D; otherwise (..., M, K), the stacks broadcast.
  const bool vector = b_in.ndim() == 1;
  if (a_in.ndim() < 2) {
    throw LinAlgError("solve: " + std::to_string(a_in.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
  const std::int64_t m = a_in.shape()[a_in.ndim() - 1];
  if (a_in.shape()[a_in.ndim() - 2] != m) {
    throw LinAlgError("solve: Last 2 dimensions of the array must be square (shape " + to_string(a_in.shape()) + ")");
  }
  const Array b2 = vector ? b_in.reshape({b_in.shape()[0], 1}) : b_in;
  if (b2.ndim() < 2 || b2.shape()[b2.ndim() - 2] != m) {
    throw InvalidArgument("solve: b of shape " + to_string(b_in.shape()) + " does not match a of shape " +
                          to_string(a_in.shape()) + " (b must be (M,) or (..., M, K) with M = " + std::to_string(m) +
                          ")");
  }
  const std::int64_t k = b2.shape()[b2.ndim() - 1];
  const std::vector<std::int64_t> ba(a_in.shape().dims().begin(), a_in.shape().dims().end() - 2);
  const std::vector<std::int64_t> bb(b2.shape().dims().begin(), b2.shape().dims().end() - 2);
  const Shape batch = broadcast_shapes(Shape(ba), Shape(bb));
  std::vector<std::int64_t> da(batch.dims()), db(batch.dims());
  da.insert(da.end(), {m, m});
  db.insert(db.end(), {m, k});
  HostStack<T> A = read_stack<T>(a_in.broadcast_to(Shape(da)), "solve", true);
  HostStack<T> B = read_stack<T>(b2.broadcast_to(Shape(db)), "solve", false);
  const auto& f = lapack_fns<T>();
  std::vector<T> ca(static_cast<std::size_t>(m * m)), cb(static_cast<std::size_t>(m * k));
  std::vector<int> piv(static_cast<std::size_t>(std::max<std::int64_t>(m, 1)));
  const int n = to_int(m), nrhs = to_int(k), ld = std::max(1, n);
  for (std::int64_t i = 0; i < A.count && m > 0 && k > 0; ++i) {
    transpose_into(A.matrix(i), m, m, ca.data());
    transpose_into(B.matrix(i), m, k, cb.data());
    int info = 0;
    f.gesv(&n, &nrhs, ca.data(), &ld, piv.data(), cb.data(), &ld, &info);
    if (info > 0) throw LinAlgError("solve: Singular matrix");
    if (info < 0) throw InvalidArgument("solve: LAPACK gesv refused argument " + std::to_string(-info));
    transpose_into(cb.data(), k, m, B.matrix(i));
  }
  const std::vector<std::int64_t> out_batch(batch.dims());
  if (vector) return make_array(B.data, out_batch, {m}, a_in.device());
  return make_array(B.data, out_batch, {m, k}, a_in.device());
}

int piv_sign(const std::vector<int>& piv, int n) {
  int s = 1;
  for (int j = 0; j < n; ++j)
    if (piv[static_cast<std::size_t>(j)] != j + 1) s = -s;
  return s;
}

// LU factors of each matrix as stored (the transpose has the same determinant): the
// determinant's sign (a unit complex number for complex T: det / |det|) and log |det| (real)
// per matrix, and the determinant itself when product is given.
template <class T>
void lu_logdet(const Array& a, const char* fn, std::vector<std::int64_t>& batch, std::vector<T>& sign,
               std::vector<detail::la::real_t<T>>& logabs, std::vector<T>* product = nullptr) {
  using R = detail::la::real_t<T>;
  HostStack<T> s = read_stack<T>(a, fn, true);
  batch = s.batch;
  const auto& f = lapack_fns<T>();
  const int n = to_int(s.rows), ld = std::max(1, n);
  std::vector<int> piv(static_cast<std::size_t>(std::max(n, 1)));
  sign.assign(static_cast<std::size_t>(s.count), T(1));
  logabs.assign(static_cast<std::size_t>(s.count), R(0));
  if (product) product->assign(static_cast<std::size_t>(s.count), T(1));
  for (std::int64_t i = 0; i < s.count && n > 0; ++i) {
    int info = 0;
    T* x = s.matrix(i);
    f.getrf(&n, &n, x, &ld, piv.data(), &info);
    if (info < 0) throw InvalidArgument(std::string(fn) + ": LAPACK getrf refused argument " + std::to_string(-info));
    T sg = T(static_cast<R>(piv_sign(piv, n))), prod = T(1);
    R la = 0;
    for (int j = 0; j < n; ++j) {
      const T d = x[j * n + j];
      const R mag = std::abs(d);
      prod *= d;
      if constexpr (detail::la::is_complex_v<T>) {
        if (mag != 0) sg *= d / mag;
      } else {
        if (d < 0) sg = -sg;
      }
      la += std::log(mag);
    }
    if (info > 0) {
      sg = T(0);
      la = -std::numeric_limits<R>::infinity();
    }
    if (product) (*product)[static_cast<std::size_t>(i)] = T(static_cast<R>(piv_sign(piv, n))) * prod;
    sign[static_cast<std::size_t>(i)] = sg;
    logabs[static_cast<std::size_t>(i)] = la;
  }
}

template <class T>
Array cholesky_as(const Array& a, bool upper) {
  HostStack<T> s = read_stack<T>(a, "cholesky", true);
  const auto& f = lapack_fns<T>();
  const int n = to_int(s.rows), ld = std::max(1, n);
  // The row-major buffer is the column-major transpose: its upper triangle is a's lower one.
  const char uplo = upper ? 'L' : 'U';
  for (std::int64_t i = 0; i < s.count && n > 0; ++i) {
    T* x = s.matrix(i);
    int info = 0;
    f.potrf(&uplo, &n, x, &ld, &info, 1);
    if (info > 0) throw LinAlgError("cholesky: Matrix is not positive definite");
    if (info < 0) throw InvalidArgument("cholesky: LAPACK potrf refused argument " + std::to_string(-info));
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (upper ? c < r : c > r) x[r * n + c] = T(0);
  }
  return make_array(s.data, s.batch, {s.rows, s.rows}, a.device());
}

}  // namespace

Array solve(const Array& a, const Array& b) {
  return detail::la::dispatch(common_dtype(a, b, "solve"), [&](auto t) { return solve_as<decltype(t)>(a, b); });
}

Array inv(const Array& a) {
  if (a.ndim() < 2) {
    throw LinAlgError("inv: " + std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
  const std::int64_t m = a.shape()[a.ndim() - 1];
  const DType t = detail::la::compute_dtype(a, "inv");
  std::vector<double> eye(static_cast<std::size_t>(m * m), 0.0);
  for (std::int64_t i = 0; i < m; ++i) eye[static_cast<std::size_t>(i * m + i)] = 1.0;
  const Array id = Array::from_host_bytes(eye.data(), eye.size(), DType::float64, Shape({m, m}), a.device()).astype(t);
  const std::vector<std::int64_t> batch(a.shape().dims().begin(), a.shape().dims().end() - 2);
  std::vector<std::int64_t> full = batch;
  full.insert(full.end(), {m, m});
  try {
    return solve(a, id.broadcast_to(Shape(full)));
  } catch (const LinAlgError& e) {
    const std::string what = e.what();
    throw LinAlgError("inv" + what.substr(what.find(':')));
  }
}

SlogdetResult slogdet(const Array& a) {
  return detail::la::dispatch(detail::la::compute_dtype(a, "slogdet"), [&](auto t) {
    using T = decltype(t);
    std::vector<std::int64_t> batch;
    std::vector<T> sign;
    std::vector<detail::la::real_t<T>> logabs;
    lu_logdet<T>(a, "slogdet", batch, sign, logabs);
    return SlogdetResult{make_array(sign, batch, {}, a.device()), make_array(logabs, batch, {}, a.device())};
  });
}

Array det(const Array& a) {
  return detail::la::dispatch(detail::la::compute_dtype(a, "det"), [&](auto t) {
    using T = decltype(t);
    std::vector<std::int64_t> batch;
    std::vector<T> sign, d;
    std::vector<detail::la::real_t<T>> logabs;
    lu_logdet<T>(a, "det", batch, sign, logabs, &d);
    return make_array(d, batch, {}, a.device());
  });
}

Array cholesky(const Array& a, bool upper) {
  return detail::la::dispatch(detail::la::compute_dtype(a, "cholesky"),
                              [&](auto t) { return cholesky_as<decltype(t)>(a, upper); });
}

}  // namespace weft::linalg
