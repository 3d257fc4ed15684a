// Kernel arguments: checked against the kernel's declared parameters when they are set, so
// a wrong type fails with both types named, never as a garbled launch.
#include <cstring>

#include "runtime/backend.hpp"
#include "weft/error.hpp"
#include "weft/program.hpp"

namespace weft {

namespace {
std::string describe(const detail::KernelImpl& k, std::size_t index) {
  const auto& p = k.params()[index];
  return "kernel '" + k.name() + "' argument " + std::to_string(index) + " ('" + p.type_name +
         " " + p.name + "')";
}

detail::KernelImpl& checked(const std::shared_ptr<detail::KernelImpl>& impl, std::size_t index) {
  if (!impl) throw InvalidArgument("an empty Kernel handle was used");
  if (index >= impl->params().size()) {
    throw InvalidArgument("kernel '" + impl->name() + "' has " +
                          std::to_string(impl->params().size()) + " argument(s); index " +
                          std::to_string(index) + " is out of range");
  }
  return *impl;
}
}  // namespace

const std::string& Kernel::name() const {
  if (!impl_) throw InvalidArgument("an empty Kernel handle was used");
  return impl_->name();
}

std::size_t Kernel::num_args() const { return impl_ ? impl_->params().size() : 0; }

std::size_t Kernel::resident_groups_per_unit(std::size_t local_size, std::size_t local_bytes) const {
  return impl_ && local_size > 0 ? impl_->resident_groups(local_size, local_bytes) : 0;
}

std::optional<std::size_t> Kernel::private_bytes_per_item() const {
  return impl_ ? impl_->private_bytes() : std::nullopt;
}

const KernelArgInfo& Kernel::arg_info(std::size_t index) const {
  return checked(impl_, index).params()[index];
}

void Kernel::check_arg_count(std::size_t count) const {
  if (!impl_) throw InvalidArgument("an empty Kernel handle was used");
  if (count != impl_->params().size()) {
    throw InvalidArgument("kernel '" + impl_->name() + "' takes " +
                          std::to_string(impl_->params().size()) + " argument(s), " +
                          std::to_string(count) + " given");
  }
}

Kernel& Kernel::set_arg(std::size_t index, const Buffer& buffer) {
  auto& k = checked(impl_, index);
  const auto& p = k.params()[index];
  if (!p.is_pointer || p.space == AddressSpace::local || p.space == AddressSpace::private_) {
    throw InvalidArgument(describe(k, index) + " is not a __global or __constant pointer; a " +
                          "Buffer cannot be bound to it");
  }
  if (!buffer) throw InvalidArgument(describe(k, index) + ": an empty Buffer was given");
  auto& a = k.args()[index];
  a.kind = detail::ArgValue::Kind::buffer;
  a.buffer = buffer.impl();
  a.size = 0;
  return *this;
}

Kernel& Kernel::set_arg(std::size_t index, LocalMemory local) {
  auto& k = checked(impl_, index);
  const auto& p = k.params()[index];
  if (!p.is_pointer || p.space != AddressSpace::local) {
    throw InvalidArgument(describe(k, index) + " is not a __local pointer; LocalMemory " +
                          "cannot be bound to it");
  }
  if (local.bytes == 0) throw InvalidArgument(describe(k, index) + ": __local size must be > 0");
  auto& a = k.args()[index];
  a.kind = detail::ArgValue::Kind::local;
  a.buffer.reset();
  a.size = local.bytes;
  return *this;
}

Kernel& Kernel::set_value(std::size_t index, std::optional<DType> dtype, const void* data,
                          std::size_t size) {
  auto& k = checked(impl_, index);
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
  auto& a = k.args()[index];
  a.kind = detail::ArgValue::Kind::value;
  a.buffer.reset();
  a.size = size;
  std::memcpy(a.bytes.data(), data, size);
  return *this;
}

namespace detail {

void KernelImpl::check_all_set() const {
  for (std::size_t i = 0; i < args_.size(); ++i) {
    if (args_[i].kind == ArgValue::Kind::unset) {
      throw InvalidArgument("kernel '" + name_ + "' argument " + std::to_string(i) + " ('" +
                            params_[i].type_name + " " + params_[i].name + "') was never set");
    }
  }
}

void check_launch(const KernelImpl& kernel, const DeviceInfo& device, const LaunchConfig& c) {
  const auto where = [&] { return "launch of kernel '" + kernel.name() + "'"; };
  if (c.global.empty()) throw InvalidArgument(where() + ": the global size is empty");
  if (!c.local.empty() && c.local.dims() != c.global.dims()) {
    throw InvalidArgument(where() + ": local size has " + std::to_string(c.local.dims()) +
                          " dimension(s), global size " + std::to_string(c.global.dims()));
  }
  if (!c.offset.empty() && c.offset.dims() != c.global.dims()) {
    throw InvalidArgument(where() + ": offset has " + std::to_string(c.offset.dims()) +
                          " dimension(s), global size " + std::to_string(c.global.dims()));
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
    if (device.max_work_group_size && group > device.max_work_group_size) {
      throw InvalidArgument(where() + ": work-group of " + std::to_string(group) +
                            " items exceeds the device's maximum of " +
                            std::to_string(device.max_work_group_size) + " (" + device.name + ")");
    }
  }
  kernel.check_all_set();
  for (std::size_t i = 0; i < kernel.args().size(); ++i) {
    const auto& a = kernel.args()[i];
    if (a.kind == ArgValue::Kind::buffer && a.buffer->device()->info().selector != device.selector) {
      throw InvalidArgument(where() + ": argument " + std::to_string(i) + " is a buffer on " +
                            a.buffer->device()->info().selector + ", the queue is on " +
                            device.selector);
    }
  }
}

}  // namespace detail
}  // namespace weft
