// NVRTC compilation of translated dialect source into CUBINs (compile_cuda needs libnvrtc,
// not a GPU), the CUDA device's ProgramCompiler, and the modules, programs and kernels it makes.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cuda/cuda_api.hpp"
#include "dialect/translate.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"

namespace weft::detail {

/// Compiles a translation (dialect/translate.hpp, Target::cuda) with NVRTC for arch ("sm_90") into
/// a CUBIN. Throws BuildError with NVRTC's log and the offending lines of user_source,
/// Unsupported when NVRTC is missing.
std::string compile_cuda(const std::string& cu, const std::vector<std::string>& flags, const std::string& arch,
                         std::string_view user_source);

/// NVRTC options for build options (checked here): -D/-I pass through,
/// -cl-fast-relaxed-math becomes --use_fast_math.
std::vector<std::string> cuda_build_flags(std::string_view options);

/// "13.0", or throws Unsupported when NVRTC is missing.
std::string nvrtc_version();

class CudaDevice;

/// The CUDA device's side of the ProgramBuilder: the translation for CUDA, NVRTC for the
/// device's exact architecture, CUBINs loaded as modules. With cuda_source, the compiler of
/// Program::build_cuda: CUDA C as written (cuda_source.hpp), its kernels launched without
/// the hidden launch description dialect kernels take first.
class CudaCompiler final : public ProgramCompiler {
 public:
  explicit CudaCompiler(CudaDevice& device, bool cuda_source = false) : device_(device), cuda_source_(cuda_source) {}
  std::string_view backend() const noexcept override { return "cuda"; }
  void hash_device(Hasher& h) const override;
  std::vector<std::string> map_options(std::string_view options) const override { return cuda_build_flags(options); }
  std::unique_ptr<TranslatedSource> translate(std::string_view source, std::string_view options) const override;
  CompiledProgram compile(const TranslatedSource& translated, const std::vector<std::string>& flags,
                          std::string_view source) override;
  /// PayloadRefused when the driver does not load the CUBIN or it lacks a kernel.
  std::shared_ptr<ProgramImpl> load(std::string_view payload, const TranslatedSource& translated,
                                    const std::vector<std::string>& flags) override;

 private:
  CudaDevice& device_;
  bool cuda_source_;
};

class CudaModule {
 public:
  CudaModule(std::weak_ptr<CudaDevice> device, cu::CUmodule module) : device_(std::move(device)), module_(module) {}
  ~CudaModule();
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;
  cu::CUmodule get() const noexcept { return module_; }

 private:
  // Weak: a module outliving its device (at exit) is dropped with the device's context.
  std::weak_ptr<CudaDevice> device_;
  cu::CUmodule module_;
};

class CudaKernel final : public KernelImpl {
 public:
  CudaKernel(std::string name, std::vector<KernelArgInfo> params, std::shared_ptr<CudaModule> module,
             cu::CUfunction function, std::size_t max_threads, std::optional<std::size_t> private_bytes,
             bool launch_description = true);
  cu::CUfunction function() const noexcept { return function_; }
  std::size_t max_threads() const noexcept { return max_threads_; }
  /// Raises the kernel's dynamic shared memory limit when a launch needs more than 48 KiB.
  void allow_shared(std::size_t bytes);
  std::size_t resident_groups(std::size_t local_size, std::size_t local_bytes) const override;
  std::optional<std::size_t> private_bytes() const override { return private_bytes_; }
  /// Whether the kernel's first parameter is weft's hidden launch description (offsets, work
  /// dimensions: every dialect kernel); CUDA C as written takes its own parameters only.
  bool launch_description() const noexcept { return launch_description_; }

 private:
  std::shared_ptr<CudaModule> module_;  // keeps the code loaded
  cu::CUfunction function_;
  std::size_t max_threads_;
  std::optional<std::size_t> private_bytes_;
  bool launch_description_;
  std::mutex mutex_;
  std::size_t shared_allowed_ = 48 * 1024;
};

class CudaProgram final : public ProgramImpl {
 public:
  CudaProgram(std::shared_ptr<CudaDevice> device, std::shared_ptr<CudaModule> module,
              std::map<std::string, dialect::KernelEntry> kernels, bool cuda_source = false)
      : device_(std::move(device)), module_(std::move(module)), kernels_(std::move(kernels)),
        cuda_source_(cuda_source) {}
  std::shared_ptr<KernelImpl> create_kernel(std::string_view name) override;
  std::vector<std::string> kernel_names() const override;
  std::shared_ptr<DeviceImpl> device() const override;

 private:
  // Weak: the device's program table holds this program.
  std::weak_ptr<CudaDevice> device_;
  std::shared_ptr<CudaModule> module_;
  std::map<std::string, dialect::KernelEntry> kernels_;  // by OpenCL name
  bool cuda_source_;  // CUDA C as written: kernels take no launch description
};

}  // namespace weft::detail
