// CUDA devices' matrix product: cuBLAS on the array queue's stream. cuBLAS is column-major;
// a row-major C = A B is the column-major C^T = B^T A^T, so the operands go in swapped, each
// one's transposition flag as it is stored (row-major untransposed = column-major transposed).
// A stack with regular offsets is one strided-batched call, others one call per matrix.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_queue.hpp"
#include "linalg/gemm.hpp"
#include "linalg/libraries.hpp"
#include "weft/error.hpp"

namespace weft::detail::la {

namespace {

void check_cublas(int status, const char* call) {
  if (status != 0) throw DeviceError(std::string(call) + " failed with cuBLAS status " + std::to_string(status),
                                     "CUBLAS_STATUS_" + std::to_string(status), call);
}

// One cuBLAS handle per device, made with its context current on first use and kept for the
// process's life (destroying it at exit could run after the driver is gone): never destroyed. The mutex is
// held around each use: a handle's stream is per handle.
struct Handles {
  std::mutex mutex;
  std::map<const CudaDevice*, CublasHandle> by_device;
};

Handles& handles() {
  static Handles h;  // its destructor frees the map only, never a handle
  return h;
}

template <class T>
void run(const CuBlas& lib, CublasHandle h, const GemmPlan& p) {
  const T one(1), zero(0);
  const int opa = p.a_trans ? cublas_op_t : cublas_op_n;
  const int opb = p.b_trans ? cublas_op_t : cublas_op_n;
  const auto base = [](const Buffer& b) { return reinterpret_cast<T*>(static_cast<std::uintptr_t>(b.address())); };
  const T* a = base(p.a);
  const T* b = base(p.b);
  T* c = base(p.c);
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
  const int lda = static_cast<int>(p.lda), ldb = static_cast<int>(p.ldb);
  const std::int64_t mn = p.m * p.n;
  std::int64_t sa = 0, sb = 0;
  const std::size_t count = p.a_offsets.size();
  if (count > 1 && regular_stride(p.a_offsets, sa) && regular_stride(p.b_offsets, sb)) {
    int status;
    if constexpr (sizeof(T) == 4) {
      status = lib.sgemm_strided_batched(h, opb, opa, n, m, k, &one, b + p.b_offsets[0], ldb, sb, a + p.a_offsets[0],
                                         lda, sa, &zero, c, n, mn, static_cast<int>(count));
    } else {
      status = lib.dgemm_strided_batched(h, opb, opa, n, m, k, &one, b + p.b_offsets[0], ldb, sb, a + p.a_offsets[0],
                                         lda, sa, &zero, c, n, mn, static_cast<int>(count));
    }
    check_cublas(status, sizeof(T) == 4 ? "cublasSgemmStridedBatched" : "cublasDgemmStridedBatched");
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    int status;
    T* ci = c + static_cast<std::int64_t>(i) * mn;
    if constexpr (sizeof(T) == 4) {
      status = lib.sgemm(h, opb, opa, n, m, k, &one, b + p.b_offsets[i], ldb, a + p.a_offsets[i], lda, &zero, ci, n);
    } else {
      status = lib.dgemm(h, opb, opa, n, m, k, &one, b + p.b_offsets[i], ldb, a + p.a_offsets[i], lda, &zero, ci, n);
    }
    check_cublas(status, sizeof(T) == 4 ? "cublasSgemm" : "cublasDgemm");
  }
}

}  // namespace

bool gemm_cuda(const GemmPlan& plan, const Queue& queue) {
  auto* q = dynamic_cast<CudaQueue*>(queue.impl().get());
  if (!q || !have_cublas()) return false;
  const CuBlas& lib = cublas();
  const CudaDevice* dev = q->cuda_device().get();
  dev->make_current();
  Handles& hs = handles();
  std::lock_guard lock(hs.mutex);
  CublasHandle& h = hs.by_device[dev];
  if (!h) check_cublas(lib.create(&h), "cublasCreate");
  check_cublas(lib.set_stream(h, static_cast<CuStream>(q->stream())), "cublasSetStream");
  if (plan.dtype == DType::float32) run<float>(lib, h, plan);
  else run<double>(lib, h, plan);
  cu::check(cu::driver().cuStreamSynchronize(q->stream()), "cuStreamSynchronize");
  return true;
}

}  // namespace weft::detail::la
