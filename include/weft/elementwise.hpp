// Elementwise kernels from a C signature and a statement over the index i, as PyOpenCL's and
// CuPy's ElementwiseKernel:
//
//   weft::ElementwiseKernel axpy("float a, const float *x, float *y", "y[i] = a * x[i] + y[i]", "axpy");
//   axpy(queue, n, 2.0f, x, y);        // i runs over [0, n); n is also visible as `n`
//
// A preamble holds the user's own device functions and macros ("external functions"). The
// kernel is built on first use on each device and kept; a repeat call builds no string and
// hashes nothing. Calls on one object from several threads at once must be serialized.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "weft/arg_spec.hpp"
#include "weft/detail/generated.hpp"
#include "weft/queue.hpp"

namespace weft {

class ElementwiseKernel {
 public:
  ElementwiseKernel(std::string_view arguments, std::string_view operation, std::string_view name = "elementwise",
                    std::string_view preamble = {}, std::string_view options = {});

  const std::vector<ArgSpec>& arguments() const noexcept { return specs_; }
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
    Kernel& k = kernel_for(queue.device());
    detail::bind_runtime_args(k, specs_, who_, args);
    return launch_and_release(queue, k, n);
  }

  /// Runs the operation for i in [0, n) on queue's device.
  template <class... A>
  Event operator()(Queue& queue, std::size_t n, const A&... args) {
    Kernel& k = kernel_for(queue.device());
    detail::bind_user_args(k, specs_, who_, args...);
    return launch_and_release(queue, k, n);
  }

 private:
  Kernel& kernel_for(const Device& device);
  Event launch(Queue& queue, Kernel& kernel, std::size_t n);
  Event launch_and_release(Queue& queue, Kernel& kernel, std::size_t n) {
    struct Release {
      Kernel& k;
      std::size_t count;
      ~Release() { detail::release_user_buffers(k, count); }
    } release{kernel, specs_.size()};
    return launch(queue, kernel, n);
  }

  std::vector<ArgSpec> specs_;
  std::string name_;
  std::string who_;
  std::string options_;
  std::shared_ptr<detail::GeneratedSource> generated_;
  std::vector<std::pair<const void*, Kernel>> kernels_;
  bool one_index_ = false;
};

}  // namespace weft
