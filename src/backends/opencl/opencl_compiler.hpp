// Compiling dialect kernels with an OpenCL driver: the source as is, built for one device,
// kept as the driver's binary in the program cache; the programs and kernels it makes.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/opencl/opencl_api.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"

namespace weft::detail {

class OpenclDevice;

/// The OpenCL device's side of the ProgramBuilder.
class OpenclCompiler final : public ProgramCompiler {
 public:
  explicit OpenclCompiler(OpenclDevice& device) : device_(device) {}
  std::string_view backend() const noexcept override { return "opencl"; }
  void hash_device(Hasher& h) const override;
  /// The checked options, which the driver takes as they are.
  std::vector<std::string> map_options(std::string_view options) const override;
  std::unique_ptr<TranslatedSource> translate(std::string_view source, std::string_view options) const override;
  /// Builds from source; the payload is the driver's binary, the program the one just built.
  CompiledProgram compile(const TranslatedSource& translated, const std::vector<std::string>& flags,
                          std::string_view source) override;
  /// Builds the binary; PayloadRefused when the driver refuses it or it lacks a kernel.
  std::shared_ptr<ProgramImpl> load(std::string_view payload, const TranslatedSource& translated,
                                    const std::vector<std::string>& flags) override;

 private:
  OpenclDevice& device_;
};

class OpenclProgram final : public ProgramImpl {
 public:
  /// A kernel: the name the driver knows it by (its OpenCL name, or a rename where the
  /// driver reserves that: dialect/keywords.hpp), and its parameters.
  struct Entry {
    std::string symbol;
    std::vector<KernelArgInfo> params;
    std::shared_ptr<const BoundsPlan> bounds;  // WEFT_BOUNDS_CHECK (runtime/bounds_check.hpp)
  };
  OpenclProgram(std::shared_ptr<OpenclDevice> device, ClRef<cl::cl_program> program,
                std::map<std::string, Entry> kernels);
  std::shared_ptr<KernelImpl> create_kernel(std::string_view name) override;
  std::vector<std::string> kernel_names() const override;
  std::shared_ptr<DeviceImpl> device() const override;

 private:
  // Weak: the device's program table holds this program.
  std::weak_ptr<OpenclDevice> device_;
  cl::cl_device_id device_id_;
  ClRef<cl::cl_program> program_;
  std::map<std::string, Entry> kernels_;
};

class OpenclKernel final : public KernelImpl {
 public:
  OpenclKernel(std::string name, std::vector<KernelArgInfo> params, ClRef<cl::cl_kernel> kernel,
               std::size_t max_group, std::size_t preferred_multiple, std::optional<std::size_t> private_bytes,
               std::shared_ptr<const BoundsPlan> bounds = nullptr);
  /// Sets the arguments on the cl_kernel (skipping those unchanged since the last launch)
  /// and enqueues it, under the kernel's lock: a cl_kernel holds one set of arguments.
  /// Defined with the other launches, in opencl_queue.cpp.
  cl::cl_event enqueue(cl::cl_command_queue queue, const ArgList& args,
                       const LaunchConfig& config, const std::vector<cl::cl_event>& wait);
  std::optional<std::size_t> private_bytes() const override { return private_bytes_; }

 private:
  std::mutex mutex_;
  ClRef<cl::cl_kernel> kernel_;
  std::size_t max_group_;
  std::size_t preferred_multiple_;
  std::optional<std::size_t> private_bytes_;
  std::vector<ArgValue> bound_;  // what the cl_kernel holds now
  bool launched_ = false;        // enqueued once (finish_queues_at_exit registered after it)
};

}  // namespace weft::detail
