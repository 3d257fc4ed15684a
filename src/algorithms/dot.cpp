// numpy.dot as a reduction along an axis of one product expression of two broadcast views.
#include <cstdint>
#include <string>
#include <vector>

#include "weft/array.hpp"
#include "weft/error.hpp"
#include "weft/linalg.hpp"

namespace weft {

Array dot(const Expr& a_expr, const Expr& b_expr) {
  // NumPy's dot: 1-D . 1-D is the inner product; otherwise the sum over a's last axis and
  // b's second-to-last (its only one when 1-D). Both operands become broadcast views of one
  // product expression, reduced in one kernel without a temporary.
  const Array a = a_expr.as_array() ? *a_expr.as_array() : eval(a_expr);
  const Array b = b_expr.as_array() ? *b_expr.as_array() : eval(b_expr);
  if (a.ndim() == 0 || b.ndim() == 0) return eval(Expr(a) * Expr(b));
  const std::int64_t k = a.shape()[a.ndim() - 1];
  const std::size_t bk_axis = b.ndim() == 1 ? 0 : b.ndim() - 2;
  if (b.shape()[bk_axis] != k) {
    throw InvalidArgument("dot: shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                          " are not aligned: " + std::to_string(k) + " (a's last axis) != " +
                          std::to_string(b.shape()[bk_axis]) + " (b's " +
                          (b.ndim() == 1 ? "only axis)" : "second-to-last axis)"));
  }
  // Vectors and matrices: the same product as matmul's, on the device's BLAS library.
  if (a.ndim() <= 2 && b.ndim() <= 2) return matmul(a, b);
  if (b.ndim() == 1) return sum(Expr(a) * Expr(b), {-1}, false);
  // a: (..., k) -> (..., 1 x (b.ndim - 2), k, 1); b: (..., k, m) -> (1 x (a.ndim - 1), ..., k, m).
  std::vector<std::int64_t> ad(a.shape().dims().begin(), a.shape().dims().end() - 1);
  Strides as(a.strides().begin(), a.strides().end() - 1);
  for (std::size_t i = 0; i + 2 < b.ndim(); ++i) {
    ad.push_back(1);
    as.push_back(0);
  }
  ad.push_back(k);
  as.push_back(a.strides().back());
  ad.push_back(1);
  as.push_back(0);
  std::vector<std::int64_t> bd(a.ndim() - 1, 1);
  Strides bs(a.ndim() - 1, 0);
  bd.insert(bd.end(), b.shape().dims().begin(), b.shape().dims().end());
  bs.insert(bs.end(), b.strides().begin(), b.strides().end());
  const Array av = a.as_strided(Shape(ad), as, a.offset());
  const Array bv = b.as_strided(Shape(bd), bs, b.offset());
  const DType t = result_type(a.dtype(), b.dtype());
  const Array s = sum(Expr(av) * Expr(bv), {-2}, false);
  return s.dtype() == t ? s : eval(astype(Expr(s), t));
}

}  // namespace weft
