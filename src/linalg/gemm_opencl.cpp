// OpenCL devices' matrix product: CLBlast's sgemm/dgemm enqueued on the array queue's
// cl_command_queue, one call per matrix of the stack, waited for at the end.
#include <cstdint>
#include <string>

#include "backends/opencl/opencl_api.hpp"
#include "backends/opencl/opencl_memory.hpp"
#include "backends/opencl/opencl_queue.hpp"
#include "linalg/gemm.hpp"
#include "linalg/libraries.hpp"
#include "weft/error.hpp"

namespace weft::detail::la {

namespace {

template <class T, class Fn>
void run(Fn gemm, const GemmPlan& p, ClMem a, ClMem b, ClMem c, ClQueue queue) {
  const auto ta = p.a_trans ? clblast_trans : clblast_no_trans;
  const auto tb = p.b_trans ? clblast_trans : clblast_no_trans;
  const std::size_t mn = static_cast<std::size_t>(p.m * p.n);
  ClEvent last = nullptr;
  for (std::size_t i = 0; i < p.a_offsets.size(); ++i) {
    ClEvent ev = nullptr;
    const int status = gemm(clblast_row_major, ta, tb, static_cast<std::size_t>(p.m), static_cast<std::size_t>(p.n),
                            static_cast<std::size_t>(p.k), T(1), a, static_cast<std::size_t>(p.a_offsets[i]),
                            static_cast<std::size_t>(p.lda), b, static_cast<std::size_t>(p.b_offsets[i]),
                            static_cast<std::size_t>(p.ldb), T(0), c, i * mn, static_cast<std::size_t>(p.n), &queue,
                            &ev);
    if (status != 0) {
      if (last) cl::api().clReleaseEvent(static_cast<cl::cl_event>(last));
      throw DeviceError("CLBlast gemm failed with status " + std::to_string(status), "CLBlast",
                        p.dtype == DType::float32 ? "CLBlastSgemm" : "CLBlastDgemm");
    }
    if (last) cl::api().clReleaseEvent(static_cast<cl::cl_event>(last));
    last = ev;
  }
  if (last) {
    auto e = static_cast<cl::cl_event>(last);
    const cl::cl_int r = cl::api().clWaitForEvents(1, &e);
    cl::api().clReleaseEvent(e);
    cl::check(r, "clWaitForEvents");
  }
}

}  // namespace

bool gemm_opencl(const GemmPlan& plan, const Queue& queue) {
  auto* q = dynamic_cast<OpenclQueue*>(queue.impl().get());
  if (!q || !have_clblast()) return false;
  auto mem = [](const Buffer& b) {
    auto* ob = dynamic_cast<OpenclBuffer*>(b.impl().get());
    if (!ob) throw InvalidArgument("matmul: an operand's buffer is not an OpenCL buffer of the queue's device");
    return static_cast<ClMem>(ob->mem());
  };
  const ClMem a = mem(plan.a), b = mem(plan.b), c = mem(plan.c);
  const auto handle = static_cast<ClQueue>(q->handle());
  if (plan.dtype == DType::float32) run<float>(clblast().sgemm, plan, a, b, c, handle);
  else run<double>(clblast().dgemm, plan, a, b, c, handle);
  return true;
}

}  // namespace weft::detail::la
