// Elementwise kernels from a C signature and a statement over the index i, as PyOpenCL's and
// CuPy's ElementwiseKernel:
//
//   weft::ElementwiseKernel axpy("float a, const float *x, float *y", "y[i] = a * x[i] + y[i]", "axpy");
//   axpy(queue, n, 2.0f, x, y);        // i runs over [0, n); n is also visible as `n`
//
// A preamble holds the user's own device functions and macros ("external functions"). The
// kernel is built on first use on each device and kept; a repeat call builds no string and
// hashes nothing. Several threads may call one object at once: each call binds its arguments
// into a KernelArgs of its own.
#pragma once

#include "weft/export.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "weft/arg_spec.hpp"
#include "weft/detail/generated.hpp"
#include "weft/queue.hpp"

namespace weft {

class WEFT_API ElementwiseKernel {
 public:
  ElementwiseKernel(std::string_view arguments, std::string_view operation, std::string_view name = "elementwise",
                    std::string_view preamble = {}, std::string_view options = {});

  const std::vector<ArgSpec>& arguments() const noexcept { return specs_; }
  /// For each argument, whether the operation reads or writes it as `name[i]`: such an array
  /// must hold at least n elements (checked at each call; a shorter one is refused rather than
  /// read or written past its end).
  const std::vector<bool>& indexed_by_i() const noexcept { return indexed_; }
  const std::string& name() const noexcept { return name_; }
  /// The generated dialect source.
  const std::string& source() const noexcept { return generated_->source(); }

  /// One index per work-item. By default a GPU work-item takes several indices a grid apart
  /// (coalesced streaming with fewer work-items); an operation that itself loops over many
  /// elements (a reduction along an axis) wants every index in a work-item of its own, so
  /// that enough of them are in flight to hide the loads' latency.
  ElementwiseKernel& one_index_per_work_item(bool on = true) noexcept {
    one_index_ = on;
    return *this;
  }

  /// The same with arguments known only at run time.
  Event run(Queue& queue, std::size_t n, std::span<const detail::RuntimeArg> args) {
    KernelArgs call(kernel_for(queue.device()));
    detail::bind_runtime_args(call, specs_, who_, args);
    return launch(queue, call, n);
  }

  /// Runs the operation for i in [0, n) on queue's device.
  template <class... A>
  Event operator()(Queue& queue, std::size_t n, const A&... args) {
    KernelArgs call(kernel_for(queue.device()));
    detail::bind_user_args(call, specs_, who_, args...);
    return launch(queue, call, n);
  }

 private:
  Kernel kernel_for(const Device& device);
  Event launch(Queue& queue, KernelArgs& call, std::size_t n);
  static std::vector<bool> indexed_by_i(std::string_view operation, const std::vector<ArgSpec>& specs);

  std::vector<ArgSpec> specs_;
  std::string name_;
  std::string who_;
  std::string options_;
  std::shared_ptr<detail::GeneratedSource> generated_;
  std::vector<bool> indexed_;
  std::mutex mutex_;  // guards kernels_
  std::vector<std::pair<const void*, Kernel>> kernels_;
  bool one_index_ = false;
};

}  // namespace weft
