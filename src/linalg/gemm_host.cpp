// The host backend's matrix product: CBLAS sgemm/dgemm on the buffers' memory, one call per
// matrix of the stack (the library threads each call).
#include <cstdint>

#include "linalg/gemm.hpp"
#include "linalg/libraries.hpp"

namespace weft::detail::la {

namespace {

template <class T, class Fn>
void run(Fn gemm, const GemmPlan& p) {
  const T* a = static_cast<const T*>(p.a.host_ptr());
  const T* b = static_cast<const T*>(p.b.host_ptr());
  T* c = static_cast<T*>(p.c.host_ptr());
  const std::int64_t mn = p.m * p.n;
  for (std::size_t i = 0; i < p.a_offsets.size(); ++i) {
    gemm(cblas_row_major, p.a_trans ? cblas_trans : cblas_no_trans, p.b_trans ? cblas_trans : cblas_no_trans,
         static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), T(1), a + p.a_offsets[i],
         static_cast<int>(p.lda), b + p.b_offsets[i], static_cast<int>(p.ldb), T(0),
         c + static_cast<std::int64_t>(i) * mn, static_cast<int>(p.n));
  }
}

}  // namespace

bool gemm_host(const GemmPlan& plan) {
  if (!have_host_blas() || !plan.a.host_ptr() || !plan.b.host_ptr() || !plan.c.host_ptr()) return false;
  const HostBlas& blas = host_blas();
  if (plan.dtype == DType::float32) run<float>(blas.sgemm, plan);
  else run<double>(blas.dgemm, plan);
  return true;
}

bool regular_stride(const std::vector<std::int64_t>& offsets, std::int64_t& stride) {
  stride = offsets.size() > 1 ? offsets[1] - offsets[0] : 0;
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] - offsets[i - 1] != stride) return false;
  }
  return true;
}

}  // namespace weft::detail::la
