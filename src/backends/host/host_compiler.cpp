#include "backends/host/host_compiler.hpp"

#include "backends/host/host_prebuilt.hpp"

#include "core/files.hpp"
#include "core/log.hpp"
#include "core/process.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft::detail {

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

std::string host_build_hints(const std::string& log) {
  std::string out;
  // The linker's word for a helper declared but never defined (the shared object is linked
  // with --no-undefined, so this is a build error, not a failure to load later).
  for (std::size_t at = log.find("undefined reference to `"); at != std::string::npos;
       at = log.find("undefined reference to `", at + 1)) {
    std::string name = log.substr(at + 24, log.find_first_of("'(", at + 24) - at - 24);
    if (name.rfind("weft_kernel::", 0) == 0) name = name.substr(13);
    const std::string line = "function '" + name + "' is declared but never defined in the program\n";
    if (out.find(line) == std::string::npos) out += line;
  }
  // OpenCL's component-wise ?: on vectors, which C++ reads as a condition on one bool.
  if (log.find("weft_core::vec<") != std::string::npos &&
      (log.find("to 'bool'") != std::string::npos || log.find("to \xe2\x80\x98" "bool\xe2\x80\x99") != std::string::npos ||
       log.find("used where a 'bool'") != std::string::npos)) {
    out += "a vector condition in `c ? a : b` (OpenCL's component-wise select): the host backend needs "
           "select(b, a, c) there\n";
  }
  return out;
}

std::string compile_host_module(const HostToolchain& tc, const std::string& cpp,
                                const std::vector<std::string>& options,
                                std::string_view user_source, PreludeHeaders& headers) {
  if (!tc.problem.empty()) throw Unsupported("host backend cannot compile kernels: " + tc.problem);
  const PreludeHeader& prelude = headers.get(tc, options);
  TempDir dir("weft-build-");
  const std::string src = dir.path() + "/program.cpp";
  const std::string out = dir.path() + "/program.so";
  if (!write_file_atomic(src, cpp)) throw Error("cannot write " + src);
  std::vector<std::string> argv = tc.command;
  argv.insert(argv.end(), tc.flags.begin(), tc.flags.end());
  argv.push_back("-I" + prelude.directory);  // before the user's: the translation's first line
  for (const auto& o : options) {
    // The translation defines the -D macros after its prelude (dialect/translate.hpp).
    if (o.rfind("-D", 0) != 0) argv.push_back(o);
  }
  argv.push_back(src);
  for (const char* lib : {"-lm", "-lc", "-lgcc"}) argv.push_back(lib);  // -nodefaultlibs (host_api.cpp)
  argv.push_back("-o");
  argv.push_back(out);
  WEFT_LOG_DEBUG("host compile: " << tc.command[0] << " ... " << src);
  const ProcessResult r = run_process(argv);
  if (r.exit_code != 0) {
    throw BuildError("kernel build failed on host (" + tc.version + "):\n" + host_build_hints(r.output) +
                         dialect::summarize_build_log(r.output, user_source, R"(kernel\.cl)"),
                     r.output, std::string(user_source));
  }
  auto image = read_file(out);
  if (!image || image->empty()) throw Error("the host compiler wrote no shared object to " + out);
  return std::move(*image);
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

namespace {
HostCompileHook& compile_hook() {
  static HostCompileHook hook;
  return hook;
}
}  // namespace

void set_host_compile_hook(HostCompileHook hook) { compile_hook() = std::move(hook); }

CompiledProgram HostCompiler::compile(const TranslatedSource& translated, const std::vector<std::string>& flags,
                                      std::string_view source) {
  const auto& tr = Translated<dialect::Translation>::of(translated);
  if (const HostCompileHook& hook = compile_hook()) return {hook(tr, flags, source), nullptr};
  const HostToolchain& tc = HostToolchain::get();
  if (!tc.problem.empty()) throw Unsupported("host backend cannot compile kernels: " + tc.problem);
  return {compile_host_module(tc, tr.text, flags, source, PreludeHeaders::instance()), nullptr};
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
  // A program of the generator's batches (host_prebuilt.hpp) names its entry points with the
  // infix of its translation; any other, plainly.
  std::string infix;
  for (const auto& k : tr.kernels) {
    if (!k.refused.empty()) continue;
    if (!module->symbol("weft_run_" + k.symbol)) infix = HostPrebuilt::batch_infix(tr.text) + "_";
    break;
  }
  for (const auto& k : tr.kernels) {
    if (!k.refused.empty()) continue;  // a kernel the host refuses has no entry point
    const std::string s = infix + k.symbol;
    const auto* info = static_cast<const weft_host::KernelInfo*>(module->symbol("weft_info_" + s));
    if (!module->symbol("weft_run_" + s) || !info || info->num_args != k.params.size() + (k.bounds ? k.bounds->hidden() : 0) ||
        (module->symbol("weft_groups_" + s) != nullptr) != k.groups) {
      throw PayloadRefused("it lacks the entry point of kernel '" + k.name + "'");
    }
  }
  return std::make_shared<HostProgram>(device_.shared_from_this(), std::move(module), tr.kernels, std::move(infix));
}

std::optional<std::string> HostCompiler::prebuilt(std::string_view source, const std::vector<std::string>& flags) {
  if (!config().host_prebuilt) return std::nullopt;
  const HostPrebuilt& pack = HostPrebuilt::instance();
  if (pack.size() == 0) return std::nullopt;
  // Staged now, before the first background build can use them: static objects made later
  // than BackgroundBuilds' exit handler would be destroyed before it waits for that build.
  PreludeHeaders::instance();
  if (auto image = pack.find(HostPrebuilt::key(source, flags))) return std::string(*image);
  return std::nullopt;
}

// ---- programs and kernels ------------------------------------------------------------------

HostKernel::HostKernel(std::string name, std::vector<KernelArgInfo> params, std::shared_ptr<HostModule> module,
                       weft_host::RunFn entry, bool groups, std::shared_ptr<HostRunRecord> runs)
    : KernelImpl(std::move(name), std::move(params)),
      runs_(std::move(runs)),
      module_(std::move(module)),
      run_(entry),
      groups_(groups) {}

HostProgram::HostProgram(std::shared_ptr<DeviceImpl> device, std::shared_ptr<HostModule> module,
                         std::vector<dialect::KernelEntry> kernels, std::string infix)
    : device_(std::move(device)), module_(std::move(module)), kernels_(std::move(kernels)), infix_(std::move(infix)) {
  for (std::size_t i = 0; i < kernels_.size(); ++i) {
    runs_.push_back(std::make_shared<HostRunRecord>());
  }
}

std::vector<std::string> HostProgram::kernel_names() const {
  std::vector<std::string> out;
  for (const auto& k : kernels_) out.push_back(k.name);
  return out;
}

std::shared_ptr<KernelImpl> HostProgram::create_kernel(std::string_view name) {
  for (std::size_t e = 0; e < kernels_.size(); ++e) {
    const dialect::KernelEntry& k = kernels_[e];
    if (k.name != name) continue;
    if (!k.refused.empty()) {
      throw Unsupported("kernel '" + k.name + "' cannot run on the host backend: " + k.refused +
                        " (or run it on an OpenCL device: WEFT_DEVICE=opencl:cpu, e.g. PoCL, or a GPU)");
    }
    auto run = reinterpret_cast<weft_host::RunFn>(module_->symbol("weft_run_" + infix_ + k.symbol));
    auto info = static_cast<const weft_host::KernelInfo*>(module_->symbol("weft_info_" + infix_ + k.symbol));
    if (!run || !info || info->num_args != k.params.size() + (k.bounds ? k.bounds->hidden() : 0)) {
      throw Error("host: the compiled module lacks a consistent entry point for kernel '" + k.name + "'");
    }
    auto p = k.params;
    for (std::size_t i = 0; i < p.size(); ++i) {
      // By-value parameters of types the parser cannot size (structs) take their size
      // from the compiler.
      if (!p[i].is_pointer && p[i].value_size == 0) p[i].value_size = info->arg_size[i];
    }
    auto kernel = std::make_shared<HostKernel>(k.name, std::move(p), module_, run, k.groups, runs_[e]);
    kernel->set_bounds(k.bounds);
    return kernel;
  }
  std::string names;
  for (const auto& n : kernel_names()) names += (names.empty() ? "" : ", ") + n;
  throw InvalidArgument("the program has no kernel '" + std::string(name) +
                        "'; its kernels: " + (names.empty() ? "none" : names));
}

}  // namespace weft::detail
