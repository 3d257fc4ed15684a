// NVRTC compilation of translated dialect source into CUBINs (compile_cuda needs libnvrtc,
// not a GPU), and the CUDA device's ProgramCompiler.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

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
/// device's exact architecture, CUBINs loaded as modules.
class CudaCompiler final : public ProgramCompiler {
 public:
  explicit CudaCompiler(CudaDevice& device) : device_(device) {}
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
};

}  // namespace weft::detail
