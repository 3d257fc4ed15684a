// Compiling dialect kernels for the host: the system C++ compiler turns the translation
// into a shared object, kept in the program cache and loaded from memory.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/hash.hpp"
#include "runtime/program_builder.hpp"

namespace weft::detail {

/// Who compiles: the resolved compiler, its own version string, the flags and the CPU it
/// targets. All of it goes into program-cache keys.
struct HostToolchain {
  std::vector<std::string> command;   // WEFT_CXX split, argv[0] resolved
  std::string version;                // first line of `cxx --version`
  std::string target_cpu;             // CPU model and feature flags (-march=native)
  std::vector<std::string> flags;
  std::string problem;                // non-empty when no compiler can be run

  /// Resolved once per process; the version string is cached on disk by the compiler's
  /// path, size and modification time, so a warm process runs no subprocess.
  static const HostToolchain& get();
};

/// A loaded shared object, closed on destruction.
class HostModule {
 public:
  /// Loads a shared object from memory (a memfd, so nothing touches the disk).
  static std::shared_ptr<HostModule> load(std::string_view image, std::string_view what);
  HostModule() = default;
  ~HostModule();
  HostModule(const HostModule&) = delete;
  HostModule& operator=(const HostModule&) = delete;
  void* symbol(const std::string& name) const;

 private:
  void* handle_ = nullptr;
  int fd_ = -1;  // kept open: its /proc/self/fd path names the module while it is loaded
};

/// Compiles a translation unit to a shared object image. options are the user's build
/// options already mapped to compiler flags. Throws BuildError with the log and the
/// offending source lines of user_source.
std::string compile_host_module(const HostToolchain& tc, const std::string& cpp,
                                const std::vector<std::string>& options,
                                std::string_view user_source);

/// Maps OpenCL-style build options (-D, -I, -cl-fast-relaxed-math ...) to compiler flags;
/// InvalidArgument for anything else.
std::vector<std::string> host_build_flags(std::string_view options);

/// The host device's side of the ProgramBuilder: the translation for the host, the system
/// compiler, shared objects loaded from memory.
class HostCompiler final : public ProgramCompiler {
 public:
  explicit HostCompiler(DeviceImpl& device) : device_(device) {}
  std::string_view backend() const noexcept override { return "host"; }
  void hash_device(Hasher& h) const override;
  std::vector<std::string> map_options(std::string_view options) const override { return host_build_flags(options); }
  std::unique_ptr<TranslatedSource> translate(std::string_view source, std::string_view options) const override;
  CompiledProgram compile(const TranslatedSource& translated, const std::vector<std::string>& flags,
                          std::string_view source) override;
  std::shared_ptr<ProgramImpl> load(std::string_view payload, const TranslatedSource& translated,
                                    const std::vector<std::string>& flags) override;

 private:
  DeviceImpl& device_;
};

}  // namespace weft::detail
