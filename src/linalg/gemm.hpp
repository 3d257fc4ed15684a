// One matrix product as the BLAS libraries take it: C = op(A) op(B) for each matrix of a
// stack, row-major, every matrix of A (and of B) with the same transposition and leading
// dimension and its own offset. matmul.cpp plans it; gemm_host/opencl/cuda.cpp run it.
#pragma once

#include <cstdint>
#include <vector>

#include "weft/buffer.hpp"
#include "weft/dtype.hpp"
#include "weft/queue.hpp"

namespace weft::detail::la {

struct GemmPlan {
  DType dtype = DType::float32;   // float32 or float64
  std::int64_t m = 0, n = 0, k = 0;  // C is m x n, the sum runs over k (all > 0)
  bool a_trans = false, b_trans = false;  // A (m x k) stored as its transpose (k x m), B likewise
  std::int64_t lda = 0, ldb = 0;  // row strides of the stored (possibly transposed) matrices
  std::vector<std::int64_t> a_offsets, b_offsets;  // elements, one per matrix of the stack
  Buffer a, b, c;  // c: the stack of m x n results, contiguous from element 0
};

/// Each runs the plan with its backend's library and returns true, or returns false when the
/// library is absent (the caller falls back). The operands' queue work is finished before;
/// each returns once C is written.
bool gemm_host(const GemmPlan& plan);
bool gemm_opencl(const GemmPlan& plan, const Queue& queue);
bool gemm_cuda(const GemmPlan& plan, const Queue& queue);

/// Whether the offsets step by one constant (the stride of a strided-batched call).
bool regular_stride(const std::vector<std::int64_t>& offsets, std::int64_t& stride);

}  // namespace weft::detail::la
