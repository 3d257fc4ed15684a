// The host backend opens no vendor library, so its "API" is the toolchain that stands in for
// one: the system C++ compiler (HostToolchain, resolved once; its identity is part of every
// host cache key) and the shared objects it makes, loaded from memory (HostModule). They
// are the host's counterparts of NVRTC and the CUDA driver's modules (cuda_api.hpp), or of
// the OpenCL ICD loader (opencl_api.hpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace weft::detail
