#include "backends/host/host_backend.hpp"

#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "core/files.hpp"
#include "core/log.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"
#include "weft/version.hpp"

namespace weft::detail {

namespace {

std::uint64_t physical_memory() {
  struct sysinfo si {};
  if (::sysinfo(&si) != 0) return 0;
  return static_cast<std::uint64_t>(si.totalram) * si.mem_unit;
}

std::string cpu_name() {
  if (auto info = read_file("/proc/cpuinfo")) {
    std::istringstream in(*info);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("model name", 0) == 0) {
        auto v = line.substr(line.find(':') + 1);
        while (!v.empty() && v.front() == ' ') v.erase(0, 1);
        return v;
      }
    }
  }
  return "host CPU";
}

std::string format_bytes(std::size_t n) {
  std::ostringstream os;
  if (n >= (1ull << 30)) os << static_cast<double>(n) / static_cast<double>(1ull << 30) << " GiB";
  else if (n >= (1ull << 20)) os << static_cast<double>(n) / static_cast<double>(1ull << 20) << " MiB";
  else os << n << " bytes";
  return os.str();
}

class HostBackend final : public BackendImpl {
 public:
  HostBackend() {
    DeviceInfo info;
    info.name = cpu_name();
    info.vendor = "host";
    info.backend = "host";
    info.selector = "host";
    info.platform = "weft host backend";
    info.type = DeviceType::cpu;
    info.compute_units = config().num_threads;
    info.global_mem_bytes = physical_memory();
    info.max_alloc_bytes = info.global_mem_bytes;
    info.local_mem_bytes = 0;
    info.max_work_group_size = 4096;
    info.fp16 = true;
    info.fp64 = true;
    info.driver_version = std::string("weft ") + WEFT_VERSION_STRING;
    // Work-items run to completion one after another on the pool's threads (no barriers, no
    // __local memory), over plain host memory.
    DeviceCapabilities& caps = info.capabilities;
    caps.memory_is_host = true;
    caps.addressable_memory = true;
    caps.prefers_row_kernels = true;
    caps.native_api = true;
    caps.dlpack_device_type = 1;  // kDLCPU
    device_ = std::make_shared<HostDevice>(std::move(info));
  }
  std::vector<std::shared_ptr<DeviceImpl>> devices() override { return {device_}; }

 private:
  std::shared_ptr<HostDevice> device_;
};

const BackendRegistration registration("host", 0, [] { return std::make_unique<HostBackend>(); });

}  // namespace

void HostBuffer::Free::operator()(void* p) const noexcept { std::free(p); }

HostBuffer::HostBuffer(std::shared_ptr<DeviceImpl> device, std::size_t bytes)
    : BufferImpl(std::move(device), bytes) {
  if (bytes == 0) return;
  // Large buffers sit on 2 MiB boundaries and ask for transparent huge pages (as NumPy
  // does): fewer TLB misses and page faults when threads stream through them. Small ones
  // are cache-line aligned.
  const bool huge = bytes >= (std::size_t{4} << 20);
  const std::size_t align = huge ? (std::size_t{2} << 20) : 64;
  const std::size_t rounded = (bytes + align - 1) / align * align;
  const auto& info = this->device()->info();
  void* p = rounded <= info.max_alloc_bytes ? std::aligned_alloc(align, rounded) : nullptr;
  if (!p) {
    throw OutOfMemory("host: cannot allocate " + format_bytes(bytes) + " (" + std::to_string(bytes) +
                          " bytes); the machine has " + format_bytes(info.global_mem_bytes),
                      bytes, "", "aligned_alloc");
  }
  if (huge) ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure changes nothing
  data_.reset(p);
}

HostKernel::HostKernel(std::string name, std::vector<KernelArgInfo> params,
                       std::shared_ptr<HostModule> module, weft_host::RunFn entry)
    : KernelImpl(std::move(name), std::move(params)), module_(std::move(module)), run_(entry) {}

HostProgram::HostProgram(std::shared_ptr<DeviceImpl> device, std::shared_ptr<HostModule> module,
                         std::vector<dialect::KernelEntry> kernels)
    : device_(std::move(device)), module_(std::move(module)), kernels_(std::move(kernels)) {}

std::vector<std::string> HostProgram::kernel_names() const {
  std::vector<std::string> out;
  for (const auto& k : kernels_) out.push_back(k.name);
  return out;
}

std::shared_ptr<KernelImpl> HostProgram::create_kernel(std::string_view name) {
  for (const auto& k : kernels_) {
    if (k.name != name) continue;
    if (!k.refused.empty()) {
      throw Unsupported("kernel '" + k.name + "' needs work-group synchronization (" + k.refused +
                        "), which the host backend does not provide; run it on an OpenCL CPU "
                        "device instead (WEFT_DEVICE=opencl:cpu, e.g. PoCL) or on a GPU");
    }
    auto run = reinterpret_cast<weft_host::RunFn>(module_->symbol("weft_run_" + k.symbol));
    auto info = static_cast<const weft_host::KernelInfo*>(module_->symbol("weft_info_" + k.symbol));
    if (!run || !info || info->num_args != k.params.size()) {
      throw Error("host: the compiled module lacks a consistent entry point for kernel '" + k.name + "'");
    }
    auto p = k.params;
    for (std::size_t i = 0; i < p.size(); ++i) {
      // By-value parameters of types the parser cannot size (structs) take their size
      // from the compiler.
      if (!p[i].is_pointer && p[i].value_size == 0) p[i].value_size = info->arg_size[i];
    }
    return std::make_shared<HostKernel>(k.name, std::move(p), module_, run);
  }
  std::string names;
  for (const auto& n : kernel_names()) names += (names.empty() ? "" : ", ") + n;
  throw InvalidArgument("the program has no kernel '" + std::string(name) +
                        "'; its kernels: " + (names.empty() ? "none" : names));
}

HostDevice::HostDevice(DeviceInfo info) : DeviceImpl(std::move(info)), pool_(info_.compute_units) {}

std::shared_ptr<QueueImpl> HostDevice::create_queue(const QueueOptions&) {
  // Out-of-order queues run in order here: a valid schedule of any wait-list graph.
  return std::make_shared<HostQueue>(std::static_pointer_cast<HostDevice>(shared_from_this()));
}

BufferPtr HostDevice::wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) {
  return std::make_shared<HostBuffer>(shared_from_this(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)),
                                      bytes, std::move(owner));
}

BufferPtr HostDevice::allocate(std::size_t bytes) {
  return std::make_shared<HostBuffer>(shared_from_this(), bytes);
}

}  // namespace weft::detail
