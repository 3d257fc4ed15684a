#include "backends/host/host_compiler.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>

#include "backends/host/host_backend.hpp"
#include "cache/program_cache.hpp"
#include "core/files.hpp"
#include "core/log.hpp"
#include "core/process.hpp"
#include "dialect/prelude/launch_abi.hpp"
#include "dialect/translate.hpp"
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
  tc.flags = {"-std=c++20", "-O3", "-march=native", "-fPIC", "-shared", "-fno-math-errno",
              "-fno-trapping-math", "-fno-exceptions", "-fno-rtti", "-fvisibility=hidden",
              "-fno-semantic-interposition", "-w", "-x", "c++"};
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

std::vector<std::string> host_build_flags(std::string_view options) {
  std::vector<std::string> out;
  for (const auto& w : dialect::check_build_options(options)) {
    if (w.rfind("-D", 0) == 0 || w.rfind("-I", 0) == 0) {
      out.push_back(w);
    } else if (w == "-cl-fast-relaxed-math" || w == "-cl-unsafe-math-optimizations") {
      out.push_back("-ffast-math");
    } else if (w == "-cl-mad-enable") {
      out.push_back("-ffp-contract=fast");
    } else if (w == "-cl-finite-math-only") {
      out.push_back("-ffinite-math-only");
    } else if (w == "-cl-no-signed-zeros") {
      out.push_back("-fno-signed-zeros");
    }
    // Other OpenCL options (-cl-std=, -cl-opt-disable, -w ...) do not change host code.
  }
  return out;
}

std::string compile_host_module(const HostToolchain& tc, const std::string& cpp,
                                const std::vector<std::string>& options,
                                std::string_view user_source) {
  if (!tc.problem.empty()) throw Unsupported("host backend cannot compile kernels: " + tc.problem);
  TempDir dir("weft-build-");
  const std::string src = dir.path() + "/program.cpp";
  const std::string out = dir.path() + "/program.so";
  if (!write_file_atomic(src, cpp)) throw Error("cannot write " + src);
  std::vector<std::string> argv = tc.command;
  argv.insert(argv.end(), tc.flags.begin(), tc.flags.end());
  for (const auto& o : options) {
    // The translation defines the -D macros after its prelude (dialect/translate.hpp).
    if (o.rfind("-D", 0) != 0) argv.push_back(o);
  }
  argv.push_back(src);
  argv.push_back("-o");
  argv.push_back(out);
  WEFT_LOG_DEBUG("host compile: " << tc.command[0] << " ... " << src);
  const ProcessResult r = run_process(argv);
  if (r.exit_code != 0) {
    throw BuildError("kernel build failed on host (" + tc.version + "):\n" +
                         dialect::summarize_build_log(r.output, user_source, R"(kernel\.cl)"),
                     r.output, std::string(user_source));
  }
  auto image = read_file(out);
  if (!image || image->empty()) throw Error("the host compiler wrote no shared object to " + out);
  return std::move(*image);
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

void HostCompiler::hash_device(Hasher& h) const {
  const HostToolchain& tc = HostToolchain::get();
  h.update(host_prelude_text());
  h.update(tc.command.empty() ? "" : tc.command[0]).update(tc.version).update(tc.target_cpu);
  for (const auto& f : tc.flags) h.update(f);
}

std::unique_ptr<TranslatedSource> HostCompiler::translate(std::string_view source, std::string_view options) const {
  dialect::Translation tr = dialect::translate(source, dialect::Target::host, options);
  std::string description = "host program:";
  for (const auto& k : tr.kernels) description += " " + k.name;
  return std::make_unique<Translated<dialect::Translation>>(std::move(description), std::move(tr));
}

CompiledProgram HostCompiler::compile(const TranslatedSource& translated, const std::vector<std::string>& flags,
                                      std::string_view source) {
  const auto& tr = Translated<dialect::Translation>::of(translated);
  return {compile_host_module(HostToolchain::get(), tr.text, flags, source), nullptr};
}

std::shared_ptr<ProgramImpl> HostCompiler::load(std::string_view payload, const TranslatedSource& translated,
                                                const std::vector<std::string>&) {
  const auto& tr = Translated<dialect::Translation>::of(translated);
  std::shared_ptr<HostModule> module;
  try {
    module = HostModule::load(payload, translated.description());
  } catch (const Error& e) {
    throw PayloadRefused(e.what());
  }
  for (const auto& k : tr.kernels) {
    if (!k.refused.empty()) continue;  // a kernel the host refuses has no entry point
    const auto* info = static_cast<const weft_host::KernelInfo*>(module->symbol("weft_info_" + k.symbol));
    if (!module->symbol("weft_run_" + k.symbol) || !info || info->num_args != k.params.size()) {
      throw PayloadRefused("it lacks the entry point of kernel '" + k.name + "'");
    }
  }
  return std::make_shared<HostProgram>(device_.shared_from_this(), std::move(module), tr.kernels);
}

HostModule::~HostModule() {
  if (handle_) ::dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
}

void* HostModule::symbol(const std::string& name) const { return ::dlsym(handle_, name.c_str()); }

}  // namespace weft::detail
