// Kernel arguments: checked against the kernel's declared parameters when they are set, so
// a wrong type fails with both types named, never as a garbled launch. A Kernel's own
// arguments and a KernelArgs go through the same checks.
#include <cstring>

#include "runtime/backend.hpp"
#include "weft/error.hpp"
#include "weft/kernel_args.hpp"
#include "weft/program.hpp"

namespace weft {

namespace {
std::string describe(const detail::KernelImpl& k, std::size_t index) {
  const auto& p = k.params()[index];
  return "kernel '" + k.name() + "' argument " + std::to_string(index) + " ('" + p.type_name +
         " " + p.name + "')";
}

detail::KernelImpl& checked(const std::shared_ptr<detail::KernelImpl>& impl) {
  if (!impl) throw InvalidArgument("an empty Kernel handle was used");
  return *impl;
}

void check_index(const detail::KernelImpl& k, std::size_t index) {
  if (index >= k.params().size()) {
    throw InvalidArgument("kernel '" + k.name() + "' has " + std::to_string(k.params().size()) +
                          " argument(s); index " + std::to_string(index) + " is out of range");
  }
}

void check_count(const detail::KernelImpl& k, std::size_t count) {
  if (count != k.params().size()) {
    throw InvalidArgument("kernel '" + k.name() + "' takes " + std::to_string(k.params().size()) +
                          " argument(s), " + std::to_string(count) + " given");
  }
}

void bind_buffer(const detail::KernelImpl& k, detail::ArgList& args, std::size_t index, const Buffer& buffer,
                 std::size_t bytes = 0) {
  check_index(k, index);
  const auto& p = k.params()[index];
  if (!p.is_pointer || p.space == AddressSpace::local || p.space == AddressSpace::private_) {
    throw InvalidArgument(describe(k, index) + " is not a __global or __constant pointer; a " +
                          "Buffer cannot be bound to it");
  }
  if (!buffer) throw InvalidArgument(describe(k, index) + ": an empty Buffer was given");
  if (bytes > buffer.size()) {
    throw InvalidArgument(describe(k, index) + ": " + std::to_string(bytes) + " bytes of a Buffer of " +
                          std::to_string(buffer.size()) + " were given");
  }
  auto& a = args[index];
  a.kind = detail::ArgValue::Kind::buffer;
  a.buffer = buffer.impl();
  a.size = bytes;
}

void bind_local(const detail::KernelImpl& k, detail::ArgList& args, std::size_t index, LocalMemory local) {
  check_index(k, index);
  const auto& p = k.params()[index];
  if (!p.is_pointer || p.space != AddressSpace::local) {
    throw InvalidArgument(describe(k, index) + " is not a __local pointer; LocalMemory " +
                          "cannot be bound to it");
  }
  if (local.bytes == 0) throw InvalidArgument(describe(k, index) + ": __local size must be > 0");
  auto& a = args[index];
  a.kind = detail::ArgValue::Kind::local;
  a.buffer.reset();
  a.size = local.bytes;
}

void bind_value(const detail::KernelImpl& k, detail::ArgList& args, std::size_t index, std::optional<DType> dtype,
                const void* data, std::size_t size) {
  check_index(k, index);
  const auto& p = k.params()[index];
  if (p.is_pointer) {
    throw InvalidArgument(describe(k, index) + " is a pointer; bind a Buffer" +
                          std::string(p.space == AddressSpace::local ? " or LocalMemory" : "") +
                          ", not a value of " + std::to_string(size) + " bytes");
  }
  if (p.dtype && p.vector_width == 1) {
    if (!dtype || *dtype != *p.dtype) {
      throw InvalidArgument(describe(k, index) + " expects " + std::string(weft::name(*p.dtype)) +
                            " (" + std::string(c_name(*p.dtype)) + "), got " +
                            (dtype ? std::string(weft::name(*dtype)) : std::to_string(size) + " bytes"));
    }
  } else if (p.value_size != 0 && size != p.value_size) {
    throw InvalidArgument(describe(k, index) + " expects " + std::to_string(p.value_size) +
                          " bytes, got a value of " + std::to_string(size) + " bytes");
  }
  if (size > detail::ArgValue::max_value_size) {
    throw InvalidArgument(describe(k, index) + ": values larger than " +
                          std::to_string(detail::ArgValue::max_value_size) +
                          " bytes cannot be passed by value");
  }
  if (size && !data) throw InvalidArgument(describe(k, index) + ": no value given (a null pointer)");
  auto& a = args[index];
  a.kind = detail::ArgValue::Kind::value;
  a.buffer.reset();
  a.size = size;
  std::memcpy(a.bytes.data(), data, size);
}
}  // namespace

const std::string& Kernel::name() const { return checked(impl_).name(); }

std::size_t Kernel::num_args() const { return impl_ ? impl_->params().size() : 0; }

std::size_t Kernel::resident_groups_per_unit(std::size_t local_size, std::size_t local_bytes) const {
  return impl_ && local_size > 0 ? impl_->resident_groups(local_size, local_bytes) : 0;
}

std::optional<std::size_t> Kernel::private_bytes_per_item() const {
  return impl_ ? impl_->private_bytes() : std::nullopt;
}

const KernelArgInfo& Kernel::arg_info(std::size_t index) const {
  auto& k = checked(impl_);
  check_index(k, index);
  return k.params()[index];
}

void Kernel::check_arg_count(std::size_t count) const { check_count(checked(impl_), count); }

Kernel& Kernel::set_arg(std::size_t index, const Buffer& buffer) {
  auto& k = checked(impl_);
  bind_buffer(k, k.args(), index, buffer);
  return *this;
}

Kernel& Kernel::set_arg(std::size_t index, const Buffer& buffer, std::size_t bytes) {
  auto& k = checked(impl_);
  bind_buffer(k, k.args(), index, buffer, bytes);
  return *this;
}

Kernel& Kernel::set_arg(std::size_t index, LocalMemory local) {
  auto& k = checked(impl_);
  bind_local(k, k.args(), index, local);
  return *this;
}

Kernel& Kernel::set_value(std::size_t index, std::optional<DType> dtype, const void* data, std::size_t size) {
  auto& k = checked(impl_);
  bind_value(k, k.args(), index, dtype, data, size);
  return *this;
}

KernelArgs::KernelArgs(const Kernel& kernel) : kernel_(kernel), args_(checked(kernel.impl()).params().size()) {}

KernelArgs& KernelArgs::set(std::size_t index, const Buffer& buffer) {
  bind_buffer(checked(kernel_.impl()), args_, index, buffer);
  return *this;
}

KernelArgs& KernelArgs::set(std::size_t index, LocalMemory local) {
  bind_local(checked(kernel_.impl()), args_, index, local);
  return *this;
}

KernelArgs& KernelArgs::set_value(std::size_t index, std::optional<DType> dtype, const void* data, std::size_t size) {
  bind_value(checked(kernel_.impl()), args_, index, dtype, data, size);
  return *this;
}

void KernelArgs::check_count(std::size_t count) const { weft::check_count(checked(kernel_.impl()), count); }

namespace detail {

void check_launch(const KernelImpl& kernel, const ArgList& args, const DeviceImpl& device, const LaunchConfig& c) {
  const auto where = [&] { return "launch of kernel '" + kernel.name() + "'"; };
  const DeviceInfo& info = device.info();
  if (kernel.device() && kernel.device() != &device) {
    throw InvalidArgument(where() + ": the kernel was built for " + kernel.device()->info().selector +
                          " and cannot run on a queue of " + info.selector + " (build the program for that device)");
  }
  if (c.global.empty()) throw InvalidArgument(where() + ": the global size is empty");
  if (!c.local.empty() && c.local.dims() != c.global.dims()) {
    throw InvalidArgument(where() + ": local size has " + std::to_string(c.local.dims()) +
                          " dimension(s), global size " + std::to_string(c.global.dims()));
  }
  if (!c.offset.empty() && c.offset.dims() != c.global.dims()) {
    throw InvalidArgument(where() + ": offset has " + std::to_string(c.offset.dims()) +
                          " dimension(s), global size " + std::to_string(c.global.dims()));
  }
  // Every work-item's global id (offset included) must be a size_t, and the count of work-items
  // too: a product that wraps would launch far fewer work-items than asked, silently.
  std::size_t total = 1;
  for (unsigned d = 0; d < c.global.dims(); ++d) {
    const std::size_t g = c.global[d];
    const std::size_t off = c.offset.empty() ? 0 : c.offset[d];
    if (g != 0 && (total > SIZE_MAX / g || off > SIZE_MAX - g)) {
      throw InvalidArgument(where() + ": the global size " + std::to_string(c.global[0]) +
                            (c.global.dims() > 1 ? " x " + std::to_string(c.global[1]) : std::string()) +
                            (c.global.dims() > 2 ? " x " + std::to_string(c.global[2]) : std::string()) +
                            " (with its offset) overflows the index type");
    }
    total *= g;
  }
  if (!c.local.empty()) {
    std::size_t group = 1;
    for (unsigned d = 0; d < c.global.dims(); ++d) {
      if (c.local[d] == 0) throw InvalidArgument(where() + ": local size 0 in dimension " + std::to_string(d));
      if (c.global[d] % c.local[d] != 0) {
        throw InvalidArgument(where() + ": global size " + std::to_string(c.global[d]) +
                              " is not a multiple of local size " + std::to_string(c.local[d]) +
                              " in dimension " + std::to_string(d));
      }
      group *= c.local[d];
    }
    if (info.max_work_group_size && group > info.max_work_group_size) {
      throw InvalidArgument(where() + ": work-group of " + std::to_string(group) +
                            " items exceeds the device's maximum of " +
                            std::to_string(info.max_work_group_size) + " (" + info.name + ")");
    }
  }
  if (args.size() != kernel.params().size()) {
    throw InvalidArgument(where() + ": " + std::to_string(args.size()) + " argument(s) for a kernel of " +
                          std::to_string(kernel.params().size()));
  }
  std::size_t local_bytes = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    switch (a.kind) {
      case ArgValue::Kind::unset:
        throw InvalidArgument(where() + ": argument " + std::to_string(i) + " ('" + kernel.params()[i].type_name +
                              " " + kernel.params()[i].name + "') was never set");
      case ArgValue::Kind::buffer:
        if (a.buffer->device().get() != &device) {
          throw InvalidArgument(where() + ": argument " + std::to_string(i) + " is a buffer on " +
                                a.buffer->device()->info().selector + ", the queue is on " + info.selector);
        }
        break;
      case ArgValue::Kind::local: local_bytes += a.size; break;
      case ArgValue::Kind::value: break;
    }
  }
  if (local_bytes && info.local_mem_bytes && local_bytes > info.local_mem_bytes) {
    throw InvalidArgument(where() + ": " + std::to_string(local_bytes) + " bytes of __local memory (LocalMemory "
                          "arguments) exceed the device's " + std::to_string(info.local_mem_bytes) + " bytes (" +
                          info.name + ")");
  }
}

}  // namespace detail
}  // namespace weft
