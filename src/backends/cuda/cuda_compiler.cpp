#include "backends/cuda/cuda_compiler.hpp"

#include <map>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_source.hpp"
#include "dialect/translate.hpp"
#include "weft/error.hpp"

namespace weft::detail {

using namespace cu;

std::string nvrtc_version() { return cu::nvrtc().version; }

std::vector<std::string> cuda_build_flags(std::string_view options) {
  std::vector<std::string> out;
  for (const auto& w : dialect::check_build_options(options)) {
    if (w.rfind("-D", 0) == 0 || w.rfind("-I", 0) == 0) out.push_back(w);
    else if (w == "-cl-fast-relaxed-math" || w == "-cl-unsafe-math-optimizations") out.push_back("--use_fast_math");
    else if (w == "-cl-mad-enable") out.push_back("--fmad=true");
    // NVIDIA's OpenCL option for a register cap per work-item, the same meaning here.
    else if (w.rfind("-cl-nv-maxrregcount=", 0) == 0) out.push_back("--maxrregcount=" + w.substr(20));
  }
  return out;
}

std::string compile_cuda(const std::string& cu, const std::vector<std::string>& flags, const std::string& arch,
                         std::string_view user_source) {
  const cu::Nvrtc& nv = cu::nvrtc();
  cu::nvrtcProgram prog = nullptr;
  if (nv.nvrtcCreateProgram(&prog, cu.c_str(), "weft.cu", 0, nullptr, nullptr) != 0) {
    throw Error("nvrtcCreateProgram failed");
  }
  struct Destroy {
    const cu::Nvrtc& nv;
    cu::nvrtcProgram& p;
    ~Destroy() { nv.nvrtcDestroyProgram(&p); }
  } destroy{nv, prog};
  std::vector<std::string> opts{"-std=c++20", "-default-device", "--gpu-architecture=" + arch, "-w"};
  for (const auto& f : flags) {
    // The translation defines the -D macros after its prelude (dialect/translate.hpp).
    if (f.rfind("-D", 0) != 0) opts.push_back(f);
  }
  std::vector<const char*> argv;
  for (const auto& o : opts) argv.push_back(o.c_str());
  const cu::nvrtcResult r = nv.nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
  std::size_t log_size = 0;
  nv.nvrtcGetProgramLogSize(prog, &log_size);
  std::string log(log_size, '\0');
  if (log_size) nv.nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && log.back() == '\0') log.pop_back();
  if (r != 0) {
    throw BuildError("kernel build failed for CUDA " + arch + " (NVRTC " + nv.version + "):\n" +
                         dialect::summarize_build_log(log, user_source, R"(kernel\.cl)"),
                     log, std::string(user_source));
  }
  std::size_t size = 0;
  nv.nvrtcGetCUBINSize(prog, &size);
  std::string cubin(size, '\0');
  nv.nvrtcGetCUBIN(prog, cubin.data());
  return cubin;
}

namespace {
using Translation = Translated<dialect::Translation>;
}  // namespace

void CudaCompiler::hash_device(Hasher& h) const {
  h.update(cuda_prelude_text()).update(device_.info().driver_version).update(device_.arch());
  if (cuda_source_) h.update("CUDA C as written");  // never the key of a dialect source's build
}

std::unique_ptr<TranslatedSource> CudaCompiler::translate(std::string_view source, std::string_view options) const {
  dialect::Translation tr = cuda_source_ ? read_cuda_source(source, options)
                                         : dialect::translate(source, dialect::Target::cuda, options);
  std::string description = std::string(cuda_source_ ? "CUDA C " : "cuda ") + device_.arch() + " program:";
  for (const auto& k : tr.kernels) description += " " + k.name;
  return std::make_unique<Translation>(std::move(description), std::move(tr));
}

CompiledProgram CudaCompiler::compile(const TranslatedSource& translated, const std::vector<std::string>& flags,
                                      std::string_view source) {
  return {compile_cuda(Translation::of(translated).text, flags, device_.arch(), source), nullptr};
}

std::shared_ptr<ProgramImpl> CudaCompiler::load(std::string_view payload, const TranslatedSource& translated,
                                                const std::vector<std::string>&) {
  const dialect::Translation& tr = Translation::of(translated);
  device_.make_current();
  cu::CUmodule module = nullptr;
  const cu::CUresult r = cu::driver().cuModuleLoadData(&module, payload.data());
  if (r != cu::CUDA_SUCCESS) throw PayloadRefused("the driver refused the cubin: " + cu::error_name(r));
  auto self = std::static_pointer_cast<CudaDevice>(device_.shared_from_this());
  auto held = std::make_shared<CudaModule>(self, module);  // unloaded should a kernel be missing
  std::map<std::string, dialect::KernelEntry> kernels;
  for (const auto& k : tr.kernels) {
    cu::CUfunction f = nullptr;
    if (k.refused.empty() && cu::driver().cuModuleGetFunction(&f, module, k.symbol.c_str()) != cu::CUDA_SUCCESS) {
      throw PayloadRefused("it lacks the entry point of kernel '" + k.name + "'");
    }
    kernels[k.name] = k;
  }
  return std::make_shared<CudaProgram>(self, std::move(held), std::move(kernels), cuda_source_);
}

// ---- modules, programs and kernels ---------------------------------------------------------

CudaModule::~CudaModule() {
  if (auto d = device_.lock()) {
    d->make_current();
    driver().cuModuleUnload(module_);
  }
}

std::shared_ptr<DeviceImpl> CudaProgram::device() const { return device_.lock(); }

std::vector<std::string> CudaProgram::kernel_names() const {
  std::vector<std::string> out;
  for (const auto& [name, params] : kernels_) out.push_back(name);
  return out;
}

std::shared_ptr<KernelImpl> CudaProgram::create_kernel(std::string_view name) {
  auto it = kernels_.find(std::string(name));
  if (it == kernels_.end()) {
    std::string names;
    for (const auto& n : kernel_names()) names += (names.empty() ? "" : ", ") + n;
    throw InvalidArgument("the program has no kernel '" + std::string(name) + "'; its kernels: " +
                          (names.empty() ? "none" : names));
  }
  auto dev = device_.lock();
  if (!dev) throw InvalidArgument("the program's device no longer exists");
  dev->make_current();
  CUfunction f = nullptr;
  check(driver().cuModuleGetFunction(&f, module_->get(), it->second.symbol.c_str()), "cuModuleGetFunction");
  int max_threads = 0, local_bytes = 0;
  driver().cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
  std::optional<std::size_t> private_bytes;
  if (driver().cuFuncGetAttribute(&local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f) == CUDA_SUCCESS && local_bytes >= 0) {
    private_bytes = static_cast<std::size_t>(local_bytes);
  }
  auto kernel = std::make_shared<CudaKernel>(it->first, it->second.params, module_, f,
                                             static_cast<std::size_t>(max_threads), private_bytes, !cuda_source_);
  kernel->set_bounds(it->second.bounds);
  return kernel;
}

CudaKernel::CudaKernel(std::string name, std::vector<KernelArgInfo> params, std::shared_ptr<CudaModule> module,
                       CUfunction function, std::size_t max_threads, std::optional<std::size_t> private_bytes,
                       bool launch_description)
    : KernelImpl(std::move(name), std::move(params)), module_(std::move(module)), function_(function),
      max_threads_(max_threads ? max_threads : 1), private_bytes_(private_bytes),
      launch_description_(launch_description) {}

std::size_t CudaKernel::resident_groups(std::size_t local_size, std::size_t local_bytes) const {
  // The occupancy calculator counts the kernel's registers and static shared memory too.
  int blocks = 0;
  if (driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function_, static_cast<int>(local_size),
                                                          local_bytes) != CUDA_SUCCESS) {
    return 0;
  }
  return blocks > 0 ? static_cast<std::size_t>(blocks) : 0;
}

void CudaKernel::allow_shared(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  if (bytes <= shared_allowed_) return;
  check(driver().cuFuncSetAttribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(bytes)),
        "cuFuncSetAttribute");
  shared_allowed_ = bytes;
}

}  // namespace weft::detail
