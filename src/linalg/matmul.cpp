// NumPy's matmul: the shapes (1-D operands, broadcast stacks), the dtype, and the choice
// between a BLAS library (gemm.hpp) and weft's fused reduction.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "linalg/gemm.hpp"
#include "linalg/libraries.hpp"
#include "weft/error.hpp"
#include "weft/linalg.hpp"

namespace weft {

namespace {

using detail::la::GemmPlan;

// m * n * k of one matrix product below which weft's fused kernel computes the stack: one
// launch for all of it beats a library call per matrix (and, on OpenCL, CLBlast's launches)
// for matrices this small.
constexpr std::int64_t library_min_work = 16 * 16 * 16;

// How BLAS can read a matrix (the last two dimensions of an array) in place: stored as it is
// (unit column stride) or as its transpose (unit row stride), with a leading dimension.
struct Layout {
  bool ok = false;
  bool trans = false;
  std::int64_t ld = 0;
};

Layout blas_layout(const Array& x) {
  const std::size_t nd = x.ndim();
  const std::int64_t r = x.shape()[nd - 2], c = x.shape()[nd - 1];
  const std::int64_t sr = x.strides()[nd - 2], sc = x.strides()[nd - 1];
  if ((c == 1 || sc == 1) && (r == 1 || sr >= std::max<std::int64_t>(c, 1))) {
    return {true, false, r == 1 ? std::max<std::int64_t>(c, 1) : sr};
  }
  if ((r == 1 || sr == 1) && (c == 1 || sc >= std::max<std::int64_t>(r, 1))) {
    return {true, true, c == 1 ? std::max<std::int64_t>(r, 1) : sc};
  }
  return {};
}

// The element offset of each matrix of x broadcast to the stack shape batch.
std::vector<std::int64_t> matrix_offsets(const Array& x, const std::vector<std::int64_t>& batch) {
  const std::size_t nb = batch.size();
  const std::size_t lead = nb - (x.ndim() - 2);  // x's missing leading dimensions
  std::int64_t count = 1;
  for (const std::int64_t d : batch) count *= d;
  std::vector<std::int64_t> out(static_cast<std::size_t>(count), x.offset());
  std::vector<std::int64_t> idx(nb, 0);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t off = x.offset();
    for (std::size_t d = lead; d < nb; ++d) {
      if (x.shape()[d - lead] != 1) off += idx[d] * x.strides()[d - lead];
    }
    out[static_cast<std::size_t>(i)] = off;
    for (std::size_t d = nb; d-- > 0;) {
      if (++idx[d] < batch[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// The fused reduction: a (..., m, k) and b (..., k, n) as broadcast views (..., m, k, 1) and
// (..., 1, k, n) of one product expression, summed over k in one kernel.
Array fused_matmul(const Array& a, const Array& b, const std::vector<std::int64_t>& batch, DType t) {
  std::vector<std::int64_t> ad = batch, bd = batch;
  const std::int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1], n = b.shape()[b.ndim() - 1];
  ad.insert(ad.end(), {m, k});
  bd.insert(bd.end(), {k, n});
  const Array ab = a.broadcast_to(Shape(ad)), bb = b.broadcast_to(Shape(bd));
  Strides as = ab.strides(), bs = bb.strides();
  ad.push_back(1);
  as.push_back(0);
  bd.insert(bd.end() - 2, 1);
  bs.insert(bs.end() - 2, 0);
  const Array av = ab.as_strided(Shape(ad), as, ab.offset());
  const Array bv = bb.as_strided(Shape(bd), bs, bb.offset());
  const Array s = t == DType::bool_ ? any(Expr(av) * Expr(bv), {-2}, false) : sum(Expr(av) * Expr(bv), {-2}, false);
  return s.dtype() == t ? s : eval(astype(Expr(s), t));
}

// The product by a library, or an empty array when the device's library is absent.
Array library_matmul(Array a, Array b, const std::vector<std::int64_t>& batch, DType t) {
  if (a.dtype() != t) a = a.astype(t);
  if (b.dtype() != t) b = b.astype(t);
  Layout la = blas_layout(a), lb = blas_layout(b);
  if (!la.ok) {
    a = a.copy();
    la = blas_layout(a);
  }
  if (!lb.ok) {
    b = b.copy();
    lb = blas_layout(b);
  }
  GemmPlan p;
  p.dtype = t;
  p.m = a.shape()[a.ndim() - 2];
  p.k = a.shape()[a.ndim() - 1];
  p.n = b.shape()[b.ndim() - 1];
  p.a_trans = la.trans;
  p.b_trans = lb.trans;
  p.lda = la.ld;
  p.ldb = lb.ld;
  p.a_offsets = matrix_offsets(a, batch);
  p.b_offsets = matrix_offsets(b, batch);
  std::vector<std::int64_t> cd = batch;
  cd.insert(cd.end(), {p.m, p.n});
  const Device dev = a.device();
  Array c = Array::empty(Shape(cd), t, dev);
  p.a = a.buffer();
  p.b = b.buffer();
  p.c = c.buffer();
  Queue& q = array_queue(dev);
  q.finish();
  const bool done = detail::la::gemm_host(p) || detail::la::gemm_opencl(p, q) || detail::la::gemm_cuda(p, q);
  if (!done) return {};
  c.mark_written();
  return c;
}

}  // namespace

Array matmul(const Array& a_in, const Array& b_in) {
  if (a_in.ndim() == 0 || b_in.ndim() == 0) {
    throw InvalidArgument("matmul: an operand is 0-d (shapes " + to_string(a_in.shape()) + " and " +
                          to_string(b_in.shape()) + "); use * for scalars");
  }
  if (a_in.device() != b_in.device()) {
    throw InvalidArgument("matmul: the operands are on different devices (" + a_in.describe() + ", " +
                          b_in.describe() + ")");
  }
  // 1-D operands: a row (1, k) and a column (k, 1), the added dimension removed at the end.
  const Array a = a_in.ndim() == 1 ? a_in.reshape({1, a_in.shape()[0]}) : a_in;
  const Array b = b_in.ndim() == 1 ? b_in.reshape({b_in.shape()[0], 1}) : b_in;
  const std::int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1];
  const std::int64_t kb = b.shape()[b.ndim() - 2], n = b.shape()[b.ndim() - 1];
  if (k != kb) {
    throw InvalidArgument("matmul: shapes " + to_string(a_in.shape()) + " and " + to_string(b_in.shape()) +
                          " are not aligned: the first operand's last dimension (" + std::to_string(k) +
                          ") differs from the second's dimension before last (" + std::to_string(kb) + ")");
  }
  const std::vector<std::int64_t> sa(a.shape().dims().begin(), a.shape().dims().end() - 2);
  const std::vector<std::int64_t> sb(b.shape().dims().begin(), b.shape().dims().end() - 2);
  Shape batch_shape;
  try {
    batch_shape = broadcast_shapes(Shape(sa), Shape(sb));
  } catch (const InvalidArgument&) {
    throw InvalidArgument("matmul: the stack dimensions of shapes " + to_string(a_in.shape()) + " and " +
                          to_string(b_in.shape()) + " do not broadcast together");
  }
  const std::vector<std::int64_t> batch(batch_shape.dims().begin(), batch_shape.dims().end());
  const DType t = result_type(a.dtype(), b.dtype());
  std::vector<std::int64_t> cd = batch;
  cd.insert(cd.end(), {m, n});
  Array c;
  std::int64_t count = m * n;
  for (const std::int64_t d : batch) count *= d;
  if (count == 0) {
    c = Array::empty(Shape(cd), t, a.device());
  } else if (k == 0) {
    c = Array::zeros(Shape(cd), t, a.device());
  } else if ((t == DType::float32 || t == DType::float64) && m * n * k >= library_min_work) {
    c = library_matmul(a, b, batch, t);
  }
  if (!c) c = fused_matmul(a, b, batch, t);
  if (a_in.ndim() == 1) {
    std::vector<std::int64_t> d(c.shape().dims().begin(), c.shape().dims().end());
    d.erase(d.end() - 2);
    c = c.reshape(d);
  }
  if (b_in.ndim() == 1) {
    std::vector<std::int64_t> d(c.shape().dims().begin(), c.shape().dims().end());
    d.pop_back();
    c = c.reshape(d);
  }
  return c;
}

std::string matmul_library(const Device& device) {
  namespace la = detail::la;
  const std::string& b = device.backend();
  if (b == "host") return la::have_host_blas() ? "CBLAS " + la::host_blas().soname : "";
  if (b == "opencl") return la::have_clblast() ? "CLBlast " + la::clblast().soname : "";
  if (b == "cuda") return la::have_cublas() ? "cuBLAS " + la::cublas().soname : "";
  return "";
}

}  // namespace weft
