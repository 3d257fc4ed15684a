#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"
#include "weft/error.hpp"
#include "weft/program.hpp"

namespace weft {

Program Program::build(const Device& device, std::string_view source, std::string_view options) {
  if (!device) throw InvalidArgument("Program::build: no device given");
  return Program(device.impl()->program_builder().build(source, options));
}

Program Program::build_cuda(const Device& device, std::string_view source, std::string_view options) {
  if (!device) throw InvalidArgument("Program::build_cuda: no device given");
  auto* builder = device.impl()->cuda_source_builder();
  if (!builder) {
    throw Unsupported("Program::build_cuda: CUDA C source builds only on CUDA devices (NVRTC), and " +
                      device.selector() + " is not one; write the kernel in weft's dialect (OpenCL C: __kernel, "
                      "__global pointers, get_global_id(0)) to run it on every device");
  }
  return Program(builder->build(source, options));
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
