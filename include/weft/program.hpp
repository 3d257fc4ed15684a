// Programs and kernels written in the kernel dialect (OpenCL C 1.2).
//
//   auto prg = weft::Program::build(dev, R"(
//     __kernel void vadd(__global const float* a, __global const float* b,
//                        __global float* c) {
//       int i = get_global_id(0);
//       c[i] = a[i] + b[i];
//     })");
//   weft::Kernel k = prg.kernel("vadd");
//   k.set_args(a, b, c);
//   queue.launch(k, n).wait();
//
// Builds go through the program cache: a repeat build in this process or any later one
// costs a lookup. A source that does not compile throws BuildError with the compiler's log
// and the offending lines.
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "weft/buffer.hpp"
#include "weft/device.hpp"
#include "weft/dtype.hpp"

namespace weft {

namespace detail {
class ProgramImpl;
class KernelImpl;
}  // namespace detail

class Kernel;

class WEFT_API Program {
 public:
  Program() = default;
  explicit Program(std::shared_ptr<detail::ProgramImpl> impl) : impl_(std::move(impl)) {}

  /// Compiles source for device. options: -D NAME[=VALUE], -I DIR and OpenCL's -cl-* flags.
  static Program build(const Device& device, std::string_view source,
                       std::string_view options = {});
  /// Compiles CUDA C as written (NVRTC) for a device whose capabilities().cuda_source is
  /// set, through the program cache: `extern "C" __global__` kernels, found by name, whose
  /// parameters bind as a dialect kernel's (pointers take Buffers, values numbers of their
  /// type); launched as any kernel (global size = grid x block, local size = block). options
  /// as build()'s. Unsupported on other devices (the message names the device and says to
  /// write the kernel in the dialect); BuildError with NVRTC's log, or for a kernel without
  /// C linkage.
  static Program build_cuda(const Device& device, std::string_view source, std::string_view options = {});

  /// The kernel called name; InvalidArgument listing the program's kernels when there is
  /// none, Unsupported when this device cannot run it.
  Kernel kernel(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  Device device() const;

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  const std::shared_ptr<detail::ProgramImpl>& impl() const noexcept { return impl_; }

 private:
  std::shared_ptr<detail::ProgramImpl> impl_;
};

/// Whether programs built from now on check their kernels' buffer accesses: WEFT_BOUNDS_CHECK
/// (docs/BOUNDS_CHECK.md) until set_bounds_check changes it for this process. A checked and
/// an unchecked build of one source are two programs (two cache entries); a Kernel keeps the
/// mode it was built with.
WEFT_API bool bounds_check();
WEFT_API void set_bounds_check(bool on);

enum class AddressSpace : std::uint8_t { private_, global, local, constant };

/// One parameter of a kernel, as the source declares it.
struct WEFT_API KernelArgInfo {
  std::string name;                // "a"
  std::string type_name;           // "const float*", "uint", "float4"
  AddressSpace space = AddressSpace::private_;
  bool is_pointer = false;
  std::optional<DType> dtype;      // the scalar (or pointee) element type, when a dtype
  unsigned vector_width = 1;       // 4 for float4
  std::size_t value_size = 0;      // bytes of a by-value argument, 0 when unknown (struct)
};

/// Size in bytes of a __local argument: kernel.set_arg(3, weft::LocalMemory{256 * 4}).
struct WEFT_API LocalMemory {
  std::size_t bytes = 0;
};

class WEFT_API Kernel {
 public:
  Kernel() = default;
  explicit Kernel(std::shared_ptr<detail::KernelImpl> impl) : impl_(std::move(impl)) {}

  const std::string& name() const;
  std::size_t num_args() const;
  const KernelArgInfo& arg_info(std::size_t index) const;
  /// How many work-groups of local_size work-items, with local_bytes of local memory given at
  /// launch, one compute unit runs at once (its registers and local memory permitting), where
  /// the backend can tell (CUDA); 0 where it cannot. Sizes a grid that fills the device in one
  /// wave.
  std::size_t resident_groups_per_unit(std::size_t local_size, std::size_t local_bytes = 0) const;
  /// Bytes of private memory per work-item that the build placed in device memory (arrays
  /// the compiler could not keep in registers, and spilled registers), where the backend can
  /// tell: CUDA (the function's local memory) and OpenCL (CL_KERNEL_PRIVATE_MEM_SIZE, whose
  /// meaning varies by vendor). nullopt elsewhere (the host backend).
  std::optional<std::size_t> private_bytes_per_item() const;

  /// Binds a buffer to a __global or __constant pointer parameter.
  Kernel& set_arg(std::size_t index, const Buffer& buffer);
  /// Binds the first bytes of buffer (an array's elements in a larger allocation): what
  /// bounds checks (WEFT_BOUNDS_CHECK) check its accesses against. InvalidArgument when
  /// bytes exceeds the buffer's size.
  Kernel& set_arg(std::size_t index, const Buffer& buffer, std::size_t bytes);
  /// Sizes a __local pointer parameter.
  Kernel& set_arg(std::size_t index, LocalMemory local);
  /// Binds a value to a by-value parameter. Its type must be the parameter's exactly
  /// (int for int, std::uint32_t for uint ...); InvalidArgument names both otherwise.
  template <class T>
    requires(std::is_trivially_copyable_v<T> && !std::is_pointer_v<T>)
  Kernel& set_arg(std::size_t index, const T& value) {
    if constexpr (has_dtype<T>) {
      return set_value(index, dtype_of<T>, &value, sizeof(T));
    } else {
      return set_value(index, std::nullopt, &value, sizeof(T));
    }
  }
  /// Binds every argument in order; the count must match the kernel's.
  /// Binds size bytes at data to a by-value parameter. dtype, where given, must be the
  /// parameter's scalar type; vector and struct parameters take their exact size in bytes.
  /// (The typed set_arg above calls this; language bindings call it directly.)
  Kernel& set_value(std::size_t index, std::optional<DType> dtype, const void* data,
                    std::size_t size);

  template <class... A>
  Kernel& set_args(const A&... args) {
    check_arg_count(sizeof...(A));
    std::size_t i = 0;
    (set_arg(i++, args), ...);
    return *this;
  }

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  const std::shared_ptr<detail::KernelImpl>& impl() const noexcept { return impl_; }

 private:
  void check_arg_count(std::size_t count) const;
  std::shared_ptr<detail::KernelImpl> impl_;
};

}  // namespace weft
