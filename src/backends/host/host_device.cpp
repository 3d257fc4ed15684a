#include "backends/host/host_device.hpp"

#include <sys/sysinfo.h>

#include <sstream>

#include "backends/host/host_queue.hpp"
#include "core/files.hpp"
#include "weft/config.hpp"
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
    // __local memory is ordinary memory one thread owns for a group (LocalMemory arguments are
    // allocated per chunk of groups, __local arrays live on the stack): 256 KiB leaves the
    // tiles CPU-tuned kernels use room, within the threads' stacks.
    info.local_mem_bytes = 256 * 1024;
    info.max_work_group_size = 4096;
    info.fp16 = true;
    info.fp64 = true;
    info.driver_version = std::string("weft ") + WEFT_VERSION_STRING;
    // Work-items run one after another on the pool's threads, over plain host memory; kernels
    // with barriers run a group per task, split into loops at the barriers
    // (dialect/group_fission.hpp).
    DeviceCapabilities& caps = info.capabilities;
    caps.has_barriers = true;
    caps.memory_is_host = true;
    caps.addressable_memory = true;
    caps.prefers_row_kernels = true;
    caps.native_api = true;
    caps.markers_carry_host_times = true;  // a marker reads the steady clock
    caps.spreads_work_from_s = static_cast<double>(host_heavy_from_ns) * 1e-9;
    caps.dlpack_device_type = 1;  // kDLCPU
    device_ = std::make_shared<HostDevice>(std::move(info));
  }
  std::vector<std::shared_ptr<DeviceImpl>> devices() override { return {device_}; }

 private:
  std::shared_ptr<HostDevice> device_;
};

const BackendRegistration host_registration("host", 0, [] { return std::make_unique<HostBackend>(); });

}  // namespace

HostDevice::HostDevice(DeviceInfo info) : DeviceImpl(std::move(info)), pool_(info_.compute_units) {}

std::shared_ptr<QueueImpl> HostDevice::create_queue(const QueueOptions& options) {
  // Out-of-order queues run in order here: a valid schedule of any wait-list graph.
  return std::make_shared<HostQueue>(std::static_pointer_cast<HostDevice>(shared_from_this()), options.profiling);
}

}  // namespace weft::detail
