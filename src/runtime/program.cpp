#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"
#include "weft/error.hpp"
#include "weft/program.hpp"

namespace weft {

Program Program::build(const Device& device, std::string_view source, std::string_view options) {
  if (!device) throw InvalidArgument("Program::build: no device given");
  return Program(device.impl()->program_builder().build(source, options));
}

Kernel Program::kernel(std::string_view name) const {
  if (!impl_) throw InvalidArgument("an empty Program handle was used");
  auto k = impl_->create_kernel(name);
  k->set_device(impl_->device().get());
  return Kernel(std::move(k));
}

std::vector<std::string> Program::kernel_names() const {
  return impl_ ? impl_->kernel_names() : std::vector<std::string>{};
}

Device Program::device() const { return impl_ ? Device(impl_->device()) : Device(); }

}  // namespace weft
