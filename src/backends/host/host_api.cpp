#include "backends/host/host_api.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "cache/program_cache.hpp"
#include "core/files.hpp"
#include "core/hash.hpp"
#include "core/log.hpp"
#include "core/process.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

std::string cpu_signature() {
  auto info = read_file("/proc/cpuinfo");
  if (!info) return "unknown-cpu";
  std::string model, flags;
  std::istringstream in(*info);
  std::string line;
  while (std::getline(in, line)) {
    if (model.empty() && line.rfind("model name", 0) == 0) model = line.substr(line.find(':') + 1);
    if (flags.empty() && line.rfind("flags", 0) == 0) flags = line.substr(line.find(':') + 1);
    if (!model.empty() && !flags.empty()) break;
  }
  return model + " |" + flags;
}

std::string first_line(const std::string& s) {
  const auto nl = s.find('\n');
  return s.substr(0, nl);
}

HostToolchain resolve_toolchain() {
  HostToolchain tc;
  const Config& cfg = config();
  tc.command = split_command(cfg.cxx);
  tc.target_cpu = cpu_signature();
  // -nodefaultlibs: a kernel module needs libc and libm (the libraries come after the source,
  // compile_host_module), not libstdc++ and libgcc_s; resolving those cost a fifth of a
  // small kernel's build (docs/PERFORMANCE_DETAILS.md, "first result").
  tc.flags = {"-std=c++20", "-O3", "-march=native", "-fPIC", "-shared", "-nodefaultlibs", "-fno-math-errno",
              "-fno-trapping-math", "-fno-exceptions", "-fno-rtti", "-fvisibility=hidden",
              "-fno-semantic-interposition", "-Wl,--no-undefined", "-w", "-x", "c++"};
  if (tc.command.empty()) {
    tc.problem = "WEFT_CXX is empty";
    return tc;
  }
  const std::string path = find_executable(tc.command[0]);
  if (path.empty()) {
    tc.problem = "the C++ compiler '" + tc.command[0] +
                 "' was not found (install g++ or clang++, or set WEFT_CXX)";
    return tc;
  }
  tc.command[0] = path;
  // The version string, kept in the program cache by the compiler's identity.
  struct stat st {};
  ::stat(path.c_str(), &st);
  Hasher h;
  h.update(path).update(static_cast<std::uint64_t>(st.st_size)).update(static_cast<std::uint64_t>(st.st_mtime));
  const Digest memo = h.finish();
  if (auto v = ProgramCache::instance().load_note("compilers", memo); v && !v->empty()) {
    tc.version = *v;
  } else {
    std::vector<std::string> argv = tc.command;
    argv.push_back("--version");
    try {
      auto r = run_process(argv);
      tc.version = first_line(r.output);
      if (r.exit_code != 0 || tc.version.empty()) {
        tc.problem = "'" + path + " --version' failed: " + first_line(r.output);
        return tc;
      }
    } catch (const Error& e) {
      tc.problem = e.what();
      return tc;
    }
    ProgramCache::instance().store_note("compilers", memo, tc.version);
  }
  WEFT_LOG_DEBUG("host compiler: " << path << " (" << tc.version << ")");
  return tc;
}

}  // namespace

const HostToolchain& HostToolchain::get() {
  static const HostToolchain tc = resolve_toolchain();
  return tc;
}

std::shared_ptr<HostModule> HostModule::load(std::string_view image, std::string_view what) {
  auto module = std::make_shared<HostModule>();
  module->fd_ = ::memfd_create("weft-kernels", MFD_CLOEXEC);
  if (module->fd_ < 0) throw Error(std::string("memfd_create failed: ") + std::strerror(errno));
  const char* p = image.data();
  std::size_t left = image.size();
  while (left) {
    const ssize_t n = ::write(module->fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("cannot stage a kernel module: ") + std::strerror(errno));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(module->fd_);
  module->handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!module->handle_) {
    const char* err = ::dlerror();
    throw Error("cannot load the compiled kernels of " + std::string(what) + ": " +
                (err ? err : "dlopen failed"));
  }
  return module;
}

HostModule::~HostModule() {
  if (handle_) ::dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
}

void* HostModule::symbol(const std::string& name) const { return ::dlsym(handle_, name.c_str()); }

}  // namespace weft::detail
