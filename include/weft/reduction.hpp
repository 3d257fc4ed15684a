// Reductions from expressions, as PyOpenCL's ReductionKernel and CuPy's ReductionKernel:
//
//   weft::ReductionKernel dot(weft::DType::float32, "0", "a + b", "x[i] * y[i]",
//                             "const float *x, const float *y");
//   weft::Future<float> r = dot.reduce<float>(queue, n, x, y);   // returns at once
//   float value = r.get();
//
// map_expr gives element i from the arguments; reduce_expr combines a and b and must be
// associative and commutative; neutral is its identity. One pass reads each input once and
// leaves a partial per work-group, then a tiny kernel combines the partials. The result stays
// on the device (Future::device_value) until get() asks for it.
#pragma once

#include "weft/export.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "weft/arg_spec.hpp"
#include "weft/detail/generated.hpp"
#include "weft/error.hpp"
#include "weft/future.hpp"
#include "weft/queue.hpp"

namespace weft {

class WEFT_API ReductionKernel {
 public:
  ReductionKernel(DType out, std::string_view neutral, std::string_view reduce_expr, std::string_view map_expr,
                  std::string_view arguments, std::string_view preamble = {}, std::string_view name = "reduce",
                  std::string_view options = {});

  DType out_dtype() const noexcept { return out_; }
  const std::vector<ArgSpec>& arguments() const noexcept { return specs_; }
  /// The generated dialect source of the work-group variant (the host gets a chunked one).
  const std::string& source() const noexcept { return groups_->source(); }
  /// The chunked variant's source and the kernel's build options (without the device's):
  /// what the host backend builds.
  const std::string& host_source() const noexcept { return host_->source(); }
  const std::string& options() const noexcept { return options_; }

  /// The same with arguments known only at run time.
  template <class T>
  Future<T> reduce_args(Queue& queue, std::size_t n, std::span<const detail::RuntimeArg> args) {
    if (!has_dtype<T> || dtype_of<T> != out_) throw_type_mismatch(has_dtype<T> ? name(dtype_of<T>) : "a non-dtype");
    Buffer result(queue.device(), 1, out_);
    Event done = reduce_into(queue, n, result, args);
    return Future<T>(queue, std::move(result), std::move(done));
  }

  /// The same into result (one element of the output dtype, on queue's device), which the
  /// caller provides (the array layer takes it from its memory pool); returns the event after
  /// which result holds the value.
  Event reduce_into(Queue& queue, std::size_t n, const Buffer& result, std::span<const detail::RuntimeArg> args);

  /// Reduces map_expr over i in [0, n). T must be the output dtype's C++ type.
  template <class T, class... A>
  Future<T> reduce(Queue& queue, std::size_t n, const A&... args) {
    if (!has_dtype<T> || dtype_of<T> != out_) throw_type_mismatch(has_dtype<T> ? name(dtype_of<T>) : "a non-dtype");
    Kernels& k = kernels_for(queue.device());
    KernelArgs call(k.fused ? k.fused : k.partial);
    detail::bind_user_args(call, specs_, who_, args...);
    Buffer result(queue.device(), 1, out_);
    Event done = launch(queue, k, call, n, result);
    return Future<T>(queue, std::move(result), std::move(done));
  }

 private:
  struct Scratch {
    Buffer partials;
    Buffer ticket;  // the fused kernel's last-work-group counter, reset by the kernel itself
  };
  struct Kernels {
    const void* device = nullptr;
    Kernel partial;
    Kernel finish;
    Kernel fused;  // one launch, where device-scope fences exist (CUDA); else empty
    std::size_t resident = 0;  // work-groups a compute unit runs at once, where the backend tells
    std::mutex mutex;          // guards scratch
    std::vector<std::pair<const void*, Scratch>> scratch;  // per queue: stream order keeps it safe
  };
  /// The kernels of device, built on first use (several threads may ask at once).
  Kernels& kernels_for(const Device& device);
  /// Launches with call (the user's arguments bound to the first kernel's first parameters).
  Event launch(Queue& queue, Kernels& k, KernelArgs& call, std::size_t n, const Buffer& result);
  [[noreturn]] void throw_type_mismatch(std::string_view given) const;

  DType out_;
  std::vector<ArgSpec> specs_;
  std::string who_;
  std::string options_;
  bool direct_ = false;  // the map reads an array of the result's type as it is (`x[i]`)
  std::shared_ptr<detail::GeneratedSource> host_;
  std::shared_ptr<detail::GeneratedSource> groups_;
  std::mutex mutex_;  // guards kernels_
  std::vector<std::unique_ptr<Kernels>> kernels_;
};

}  // namespace weft
