// Compiling dialect kernels for the host: the system C++ compiler (host_api.hpp) turns the
// translation into a shared object, kept in the program cache and loaded from memory; the
// host device's ProgramCompiler, and the programs and kernels it makes.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/host/host_api.hpp"
#include "backends/host/host_prelude_header.hpp"
#include "core/hash.hpp"
#include "dialect/prelude/launch_abi.hpp"
#include "dialect/translate.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"

namespace weft::detail {

/// Compiles a translation unit to a shared object image. options are the user's build
/// options already mapped to compiler flags; headers stages the prelude the translation
/// includes. Throws BuildError with the log and the offending source lines of user_source.
std::string compile_host_module(const HostToolchain& tc, const std::string& cpp,
                                const std::vector<std::string>& options,
                                std::string_view user_source, PreludeHeaders& headers);

/// Plain words for the failures whose compiler messages speak C++ (a helper declared and never
/// defined, a vector condition in ?:), one line each; "" when none applies.
std::string host_build_hints(const std::string& log);

/// Maps OpenCL-style build options (-D, -I, -cl-fast-relaxed-math ...) to compiler flags;
/// InvalidArgument for anything else.
std::vector<std::string> host_build_flags(std::string_view options);

/// What the generator of the prebuilt kernels (tools/host_prebuilt_gen.cpp) puts in place of
/// the system compiler's run: it gets each program's translation, flags and dialect source and
/// returns the shared object. Empty (the default): kernels compile as usual.
using HostCompileHook = std::function<std::string(const dialect::Translation& translation,
                                                  const std::vector<std::string>& flags, std::string_view source)>;
void set_host_compile_hook(HostCompileHook hook);

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
  /// The library's prebuilt shared object of source (host_prebuilt.hpp), unless WEFT_HOST_PREBUILT=0.
  std::optional<std::string> prebuilt(std::string_view source, const std::vector<std::string>& flags) override;

 private:
  DeviceImpl& device_;
};

/// What the runs of one entry point measured, shared by every kernel object the program makes
/// of it (a call that makes its kernel anew, as polygon_mask does, still finds them).
struct HostRunRecord {
  std::atomic<std::uint64_t> last_ns{~std::uint64_t{0}};  // the last run's time; max before the first
  std::atomic<std::uint64_t> item_ps{0};  // a work-item's time on one thread (ps); 0: not yet measured
};

class HostKernel final : public KernelImpl {
 public:
  HostKernel(std::string name, std::vector<KernelArgInfo> params, std::shared_ptr<HostModule> module,
             weft_host::RunFn entry, bool groups, std::shared_ptr<HostRunRecord> runs);
  weft_host::RunFn run() const noexcept { return run_; }
  /// Its entry point runs whole work-groups ([begin, end) count groups, not work-items): a
  /// kernel with barriers or __local memory (dialect/group_fission.hpp).
  bool groups() const noexcept { return groups_; }
  /// How long its last run took on the thread that ran it (ns); max before the first run.
  std::uint64_t last_run_ns() const noexcept { return runs_->last_ns.load(std::memory_order_relaxed); }
  void note_run_ns(std::uint64_t ns) noexcept { runs_->last_ns.store(ns, std::memory_order_relaxed); }
  /// What one work-item takes on one thread (picoseconds), as its runs measured it; 0 before.
  std::uint64_t item_ps() const noexcept { return runs_->item_ps.load(std::memory_order_relaxed); }
  void note_item_ps(std::uint64_t ps) noexcept { runs_->item_ps.store(ps, std::memory_order_relaxed); }

 private:
  std::shared_ptr<HostRunRecord> runs_;
  std::shared_ptr<HostModule> module_;  // keeps the code loaded
  weft_host::RunFn run_;
  bool groups_;
};

class HostProgram final : public ProgramImpl {
 public:
  /// infix: of the entry points' names in a batch of prebuilt programs (host_prebuilt.hpp), else "".
  HostProgram(std::shared_ptr<DeviceImpl> device, std::shared_ptr<HostModule> module,
              std::vector<dialect::KernelEntry> kernels, std::string infix = {});
  std::shared_ptr<KernelImpl> create_kernel(std::string_view name) override;
  std::vector<std::string> kernel_names() const override;
  std::shared_ptr<DeviceImpl> device() const override { return device_.lock(); }

 private:
  // Weak: the device's program table holds this program.
  std::weak_ptr<DeviceImpl> device_;
  std::shared_ptr<HostModule> module_;
  std::vector<dialect::KernelEntry> kernels_;  // refused ones included: named in the error
  // Each entry point's run record, shared by its kernels.
  std::vector<std::shared_ptr<HostRunRecord>> runs_;
  std::string infix_;
};

}  // namespace weft::detail
