#include "backends/opencl/opencl_compiler.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "backends/opencl/opencl_device.hpp"
#include "dialect/translate.hpp"
#include "weft/error.hpp"

namespace weft::detail {

using namespace cl;

namespace {

using Translation = Translated<dialect::Translation>;

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  api().clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  if (size) api().clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

std::string join_options(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

/// The kernels a built program holds, or nullopt where the driver cannot tell.
std::optional<std::set<std::string>> kernels_in(cl_program program) {
  std::size_t size = 0;
  if (api().clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size) != CL_SUCCESS) return std::nullopt;
  std::string names(size, '\0');
  if (size && api().clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names.data(), nullptr) != CL_SUCCESS) {
    return std::nullopt;
  }
  std::set<std::string> out;
  std::string cur;
  for (char c : names) {
    if (c == ';' || c == '\0') {
      if (!cur.empty()) out.insert(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.insert(cur);
  return out;
}

std::shared_ptr<ProgramImpl> make_program(OpenclDevice& device, ClRef<cl_program> built,
                                          const dialect::Translation& tr) {
  std::map<std::string, OpenclProgram::Entry> kernels;
  for (const auto& k : tr.kernels) kernels[k.name] = {k.symbol, k.params, k.bounds};
  return std::make_shared<OpenclProgram>(std::static_pointer_cast<OpenclDevice>(device.shared_from_this()),
                                         std::move(built), std::move(kernels));
}

}  // namespace

void OpenclCompiler::hash_device(Hasher& h) const {
  const OpenclContext& ctx = device_.context_info();
  h.update(ctx.platform_name).update(ctx.platform_version);
  h.update(device_.info().name).update(device_.info().driver_version);
}

std::vector<std::string> OpenclCompiler::map_options(std::string_view options) const {
  return dialect::check_build_options(options);
}

std::unique_ptr<TranslatedSource> OpenclCompiler::translate(std::string_view source, std::string_view options) const {
  dialect::Translation tr = dialect::translate(source, dialect::Target::opencl, options);
  std::string description = "opencl program for " + device_.info().name + ":";
  for (const auto& k : tr.kernels) description += " " + k.name;
  return std::make_unique<Translation>(std::move(description), std::move(tr));
}

CompiledProgram OpenclCompiler::compile(const TranslatedSource& translated, const std::vector<std::string>& flags,
                                        std::string_view source) {
  const dialect::Translation& tr = Translation::of(translated);
  const Api& a = api();
  cl_device_id dev = device_.id();
  const DeviceInfo& info = device_.info();
  const std::string opts = join_options(flags);
  const char* text = tr.text.data();
  const std::size_t len = tr.text.size();
  cl_int err = CL_SUCCESS;
  ClRef<cl_program> prog(a.clCreateProgramWithSource(device_.context(), 1, &text, &len, &err), a.clReleaseProgram);
  check(err, "clCreateProgramWithSource");
  err = a.clBuildProgram(prog.get(), 1, &dev, opts.c_str(), nullptr, nullptr);
  if (err == CL_BUILD_PROGRAM_FAILURE) {
    const std::string log = build_log(prog.get(), dev);
    throw BuildError("kernel build failed on " + info.selector + " (" + info.name + "):\n" +
                         dialect::summarize_build_log(log, source, "[^:\\s]*"),
                     log, std::string(source));
  }
  if (err == CL_INVALID_BUILD_OPTIONS) {
    throw InvalidArgument("the OpenCL driver of " + info.selector + " refused the build options '" + opts + "'");
  }
  check(err, "clBuildProgram");

  // The program belongs to every device of the context (a platform's GPUs share one): sizes and
  // binaries come as arrays over the program's devices; only this device's binary is copied.
  cl_uint count = 0;
  check(a.clGetProgramInfo(prog.get(), CL_PROGRAM_NUM_DEVICES, sizeof count, &count, nullptr), "clGetProgramInfo");
  std::vector<cl_device_id> ids(count);
  check(a.clGetProgramInfo(prog.get(), CL_PROGRAM_DEVICES, count * sizeof(cl_device_id), ids.data(), nullptr),
        "clGetProgramInfo");
  // (A program of a sub-device's context may list the device under another handle: with one
  // device listed, that one is this device.)
  const auto at = std::find(ids.begin(), ids.end(), dev);
  if (at == ids.end() && count != 1) {
    throw DeviceError("clGetProgramInfo: the program's devices do not include the one it was built for", "", "");
  }
  std::vector<std::size_t> sizes(count);
  check(a.clGetProgramInfo(prog.get(), CL_PROGRAM_BINARY_SIZES, count * sizeof(std::size_t), sizes.data(), nullptr),
        "clGetProgramInfo");
  const auto index = at == ids.end() ? std::size_t{0} : static_cast<std::size_t>(at - ids.begin());
  std::string binary(sizes[index], '\0');
  std::vector<unsigned char*> ptrs(count, nullptr);  // (null: that device's binary is skipped)
  ptrs[index] = reinterpret_cast<unsigned char*>(binary.data());
  check(a.clGetProgramInfo(prog.get(), CL_PROGRAM_BINARIES, count * sizeof(unsigned char*), ptrs.data(), nullptr),
        "clGetProgramInfo");
  return {std::move(binary), make_program(device_, std::move(prog), tr)};
}

std::shared_ptr<ProgramImpl> OpenclCompiler::load(std::string_view payload, const TranslatedSource& translated,
                                                  const std::vector<std::string>& flags) {
  const dialect::Translation& tr = Translation::of(translated);
  const Api& a = api();
  cl_device_id dev = device_.id();
  const auto* ptr = reinterpret_cast<const unsigned char*>(payload.data());
  const std::size_t size = payload.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  ClRef<cl_program> prog(a.clCreateProgramWithBinary(device_.context(), 1, &dev, &size, &ptr, &status, &err),
                         a.clReleaseProgram);
  if (err == CL_SUCCESS && status == CL_SUCCESS) {
    err = a.clBuildProgram(prog.get(), 1, &dev, join_options(flags).c_str(), nullptr, nullptr);
  }
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    throw PayloadRefused("the driver refused the binary: " + error_name(err != CL_SUCCESS ? err : status));
  }
  if (const auto held = kernels_in(prog.get())) {
    for (const auto& k : tr.kernels) {
      if (!held->count(k.symbol)) throw PayloadRefused("it lacks kernel '" + k.name + "'");
    }
  }
  return make_program(device_, std::move(prog), tr);
}

// ---- programs and kernels ------------------------------------------------------------------

OpenclProgram::OpenclProgram(std::shared_ptr<OpenclDevice> device, ClRef<cl_program> program,
                             std::map<std::string, Entry> kernels)
    : device_(device), device_id_(device->id()), program_(std::move(program)), kernels_(std::move(kernels)) {}

std::shared_ptr<DeviceImpl> OpenclProgram::device() const { return device_.lock(); }

std::vector<std::string> OpenclProgram::kernel_names() const {
  std::vector<std::string> out;
  for (const auto& [name, entry] : kernels_) out.push_back(name);
  return out;
}

std::shared_ptr<KernelImpl> OpenclProgram::create_kernel(std::string_view name) {
  const Api& a = api();
  cl_int err = CL_SUCCESS;
  const std::string n(name);
  auto it = kernels_.find(n);
  // The compiled name: the OpenCL name, or its rename where the driver reserves it.
  const std::string& symbol = it != kernels_.end() ? it->second.symbol : n;
  ClRef<cl_kernel> k(a.clCreateKernel(program_.get(), symbol.c_str(), &err), a.clReleaseKernel);
  if (err == CL_INVALID_KERNEL_NAME || (err == CL_SUCCESS && it == kernels_.end())) {
    std::string names;
    for (const auto& s : kernel_names()) names += (names.empty() ? "" : ", ") + s;
    throw InvalidArgument("the program has no kernel '" + n + "'; its kernels: " + (names.empty() ? "none" : names));
  }
  check(err, "clCreateKernel");
  std::size_t max_group = 0, multiple = 1;
  a.clGetKernelWorkGroupInfo(k.get(), device_id_, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_group, &max_group, nullptr);
  a.clGetKernelWorkGroupInfo(k.get(), device_id_, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                             &multiple, nullptr);
  // NVIDIA's OpenCL reports 256 here for every kernel (driver 580 on an H200: a kernel of 10
  // registers says 256 and runs work-groups of 512; the scan capped at 32 registers by
  // -cl-nv-maxrregcount says 256 and runs 288). The driver checks each launch against the kernel's real registers
  // and local memory itself, so the device's limit stands and the driver has the last word.
  if (const auto dev = device_.lock(); dev && dev->info().nvidia_arch != 0) {
    max_group = std::max(max_group, dev->info().max_work_group_size);
  }
  cl_ulong private_mem = 0;
  std::optional<std::size_t> private_bytes;
  if (a.clGetKernelWorkGroupInfo(k.get(), device_id_, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_mem, &private_mem,
                                 nullptr) == CL_SUCCESS) {
    private_bytes = static_cast<std::size_t>(private_mem);
  }
  auto kernel = std::make_shared<OpenclKernel>(n, it->second.params, std::move(k), max_group ? max_group : 1,
                                               multiple ? multiple : 1, private_bytes, it->second.bounds);
  return kernel;
}

OpenclKernel::OpenclKernel(std::string name, std::vector<KernelArgInfo> params, ClRef<cl_kernel> kernel,
                           std::size_t max_group, std::size_t preferred_multiple,
                           std::optional<std::size_t> private_bytes, std::shared_ptr<const BoundsPlan> bounds)
    : KernelImpl(std::move(name), std::move(params)), kernel_(std::move(kernel)), max_group_(max_group),
      preferred_multiple_(preferred_multiple), private_bytes_(private_bytes) {
  set_bounds(std::move(bounds));
  bound_.resize(this->params().size() + hidden_args());
}

}  // namespace weft::detail
