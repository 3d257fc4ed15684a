// Compiling dialect kernels with an OpenCL driver: the source as is, built for one device,
// kept as the driver's binary in the program cache.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace weft::detail
