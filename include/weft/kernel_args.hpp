// The arguments of one launch, apart from the kernel: what lets several threads launch one
// Kernel at once (a Kernel's own arguments, set with Kernel::set_arg, are one set shared by
// every caller, as a cl_kernel's are).
//
//   weft::KernelArgs args(kernel);            // every argument unset
//   args.set(0, buffer).set(1, 2.5f);         // checked as Kernel::set_arg checks
//   queue.launch(args, n);                    // the kernel with these arguments
//
// Up to 16 arguments are held inline: making, filling and launching one allocates nothing.
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>

#include "weft/buffer.hpp"
#include "weft/detail/arg_value.hpp"
#include "weft/dtype.hpp"
#include "weft/program.hpp"

namespace weft {

class WEFT_API KernelArgs {
 public:
  KernelArgs() = default;
  /// Arguments for kernel, every one unset. The KernelArgs keeps the kernel alive.
  explicit KernelArgs(const Kernel& kernel);

  const Kernel& kernel() const noexcept { return kernel_; }
  std::size_t size() const noexcept { return args_.size(); }

  /// Binds a buffer to a __global or __constant pointer parameter.
  KernelArgs& set(std::size_t index, const Buffer& buffer);
  /// Sizes a __local pointer parameter.
  KernelArgs& set(std::size_t index, LocalMemory local);
  /// Binds a value to a by-value parameter; its type must be the parameter's exactly.
  template <class T>
    requires(std::is_trivially_copyable_v<T> && !std::is_pointer_v<T>)
  KernelArgs& set(std::size_t index, const T& value) {
    if constexpr (has_dtype<T>) {
      return set_value(index, dtype_of<T>, &value, sizeof(T));
    } else {
      return set_value(index, std::nullopt, &value, sizeof(T));
    }
  }
  /// Binds size bytes at data to a by-value parameter (see Kernel::set_value).
  KernelArgs& set_value(std::size_t index, std::optional<DType> dtype, const void* data, std::size_t size);
  /// Binds every argument in order; the count must match the kernel's.
  template <class... A>
  KernelArgs& set_all(const A&... args) {
    check_count(sizeof...(A));
    std::size_t i = 0;
    (set(i++, args), ...);
    return *this;
  }

  const detail::ArgList& list() const noexcept { return args_; }
  detail::ArgList& list() noexcept { return args_; }

 private:
  void check_count(std::size_t count) const;

  Kernel kernel_;
  detail::ArgList args_;
};

}  // namespace weft
