// Devices and how to find them.
//
//   for (const weft::Device& d : weft::devices()) std::cout << d.selector() << " " << d.name();
//   weft::Device gpu = weft::device("opencl:gpu");     // throws InvalidArgument if none
//   weft::Device dev = weft::default_device();          // WEFT_DEVICE, else auto
//
// Backends (host, opencl, cuda) are discovered at run time: one whose library or hardware is
// missing lists no devices, and backends() says why.
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "weft/selector.hpp"

namespace weft {

namespace detail {
class DeviceImpl;
}

/// What a device can do, asked by every layer above the backends (generators, arrays,
/// algorithms, the bindings), which never compare a backend's name. Each backend sets these
/// when it describes a device.
///
///   if (!dev.info().capabilities.has_barriers) { /* chunked loops, no work-groups */ }
struct WEFT_API DeviceCapabilities {
  /// Work-groups whose work-items share __local memory and meet at barrier(): every backend
  /// (the host backend splits such kernels into loops at their barriers). Generators still
  /// pick their chunked, barrier-free variants where prefers_row_kernels says the work-items
  /// are CPU threads.
  bool has_barriers = false;
  /// Buffers are plain host memory the CPU addresses directly (Buffer::host_ptr() is set):
  /// the host backend. An OpenCL CPU device's buffers are handles, not this.
  bool memory_is_host = false;
  /// Buffers have an address (Buffer::address()) that kernels see and other libraries may
  /// use, and Buffer::wrap takes memory by address: host and CUDA. OpenCL buffers are handles.
  bool addressable_memory = false;
  /// Work made of independent rows runs best as one row per work-item, each thread on
  /// contiguous rows (the polygon mask's row kernel): the host backend's CPU threads.
  bool prefers_row_kernels = false;
  /// Kernels compile as CUDA, whose prelude defines the inline-PTX helpers (WEFT_PTX) itself;
  /// elsewhere a generator that wants them asks with -D WEFT_PTX=1.
  bool native_ptx = false;
  /// Generated kernels may use inline PTX (warp shuffles, device-scope fences, asynchronous
  /// copies): every CUDA device, and NVIDIA's OpenCL on GPUs of compute capability 7.0 and
  /// later unless WEFT_OPENCL_PTX=0.
  bool inline_ptx = false;
  /// The device is driven through its own native interface (CUDA for an NVIDIA GPU, the host
  /// backend for the CPU) rather than a portable one (OpenCL) over the same hardware: `auto`
  /// prefers it.
  bool native_api = false;
  /// Program::build_cuda compiles CUDA C as written (`extern "C" __global__` kernels, what
  /// CuPy's RawModule takes) for the device: CUDA devices (NVRTC). Elsewhere kernels are
  /// written in the dialect, which runs everywhere.
  bool cuda_source = false;
  /// A marker's Event::profile() gives its completion on the host's steady clock even on a
  /// queue without profiling, exact however late its callback runs: the host backend's markers
  /// read the clock, CUDA's are timing events anchored to it. OpenCL markers have no times
  /// unless the queue profiles (and then on the device's clock). Online placement learning
  /// times operations by them where this is set.
  bool markers_carry_host_times = false;
  /// A launch without a local size whose work-items take this long or more in all on one
  /// thread is cut into many short chunks over every thread, where lighter ones run a chunk of
  /// 4096 work-items a thread (the host backend: 50 us; backends/host/host_queue.hpp). 0: a
  /// launch's chunks do not depend on its work. The placement model (DeviceCosts::spread_from_s)
  /// takes a heavy operation's time there from the rate of all threads, not of one a chunk.
  double spreads_work_from_s = 0;
  /// Reads of several buffers into pageable host memory are cheaper queued together and waited
  /// for once than one after another: an OpenCL CPU device, whose worker threads make each
  /// blocking read a round trip (PoCL on the 2-core VM: three reads 45-58 us one by one, 24
  /// together). Not NVIDIA's OpenCL (its non-blocking reads into pageable memory made a host
  /// operation reading three arrays from it 2.5 times slower on the H200) nor CUDA (the same
  /// either way); unknown elsewhere, so off. An operation reading several arrays from here
  /// (detail::make_current_all) queues their reads where this is set.
  bool reads_queue_together = false;
  /// A small blocking read into pageable host memory is faster through pinned memory: queued
  /// into a pinned block of the device's, waited for, then copied out on the host (up to 64
  /// KiB a read; runtime/small_reads.hpp), and an operation reading several arrays from here
  /// queues them into the block together and waits once. CUDA and OpenCL GPUs: on the H200
  /// (run AT of docs/PERFORMANCE.md) a read of 400 bytes took 8.8 us into pageable memory and
  /// 6.7 through pinned; three of them 26 us one after another and 10 us together (NVIDIA's
  /// OpenCL queued into pageable memory: 91-129 us).
  bool reads_through_pinned = false;
  /// DLPack's device type for the device's memory: kDLCPU (1) host, kDLCUDA (2) CUDA,
  /// kDLOpenCL (4) OpenCL. Memory is shared through DLPack only where addressable_memory.
  int dlpack_device_type = 0;
  /// DLPack's device id: the CUDA device ordinal; 0 elsewhere.
  int dlpack_device_id = 0;
};

struct WEFT_API DeviceInfo {
  std::string name;              // "AMD EPYC 7B13", "NVIDIA H100 80GB HBM3", ...
  std::string vendor;
  std::string backend;           // "host", "opencl", "cuda"
  std::string selector;          // "host", "opencl:0:1", "cuda:0"
  std::string platform;          // OpenCL platform name, CUDA driver, host compiler ...
  std::string driver_version;    // what program-cache keys include
  DeviceType type = DeviceType::other;
  unsigned compute_units = 0;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t local_mem_bytes = 0;   // 0 where there is no local memory (host backend)
  std::uint64_t max_alloc_bytes = 0;
  std::size_t max_work_group_size = 0;
  bool fp16 = false;
  bool fp64 = false;
  // NVIDIA GPUs (CUDA, and OpenCL where the driver reports it): the compute capability as
  // major * 10 + minor (90 for an H100 or H200); 0 elsewhere.
  unsigned nvidia_arch = 0;
  DeviceCapabilities capabilities;
};

class WEFT_API Device {
 public:
  Device() = default;
  explicit Device(std::shared_ptr<detail::DeviceImpl> impl) : impl_(std::move(impl)) {}

  const DeviceInfo& info() const;
  const std::string& name() const { return info().name; }
  const std::string& selector() const { return info().selector; }
  const std::string& backend() const { return info().backend; }
  DeviceType type() const { return info().type; }
  const DeviceCapabilities& capabilities() const { return info().capabilities; }

  /// Splits the device into sub-devices of compute_units_each compute units (OpenCL device
  /// fission). Throws Unsupported where the device cannot be split.
  std::vector<Device> partition(unsigned compute_units_each) const;
  /// Splits the device into one sub-device per entry of counts, of that many compute units
  /// (OpenCL fission by counts). Throws Unsupported where the device cannot be split and
  /// InvalidArgument where the counts do not fit it.
  std::vector<Device> partition_by_counts(std::span<const unsigned> counts) const;
  /// The sub-devices of the latest partition of this device that are still alive, in order:
  /// the selector "<this device's selector>/S" names the S-th (see selector.hpp).
  std::vector<Device> sub_devices() const;

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  friend bool operator==(const Device& a, const Device& b) noexcept { return a.impl_ == b.impl_; }

  const std::shared_ptr<detail::DeviceImpl>& impl() const noexcept { return impl_; }

 private:
  std::shared_ptr<detail::DeviceImpl> impl_;
};

/// What became of one backend at discovery.
struct WEFT_API BackendStatus {
  std::string name;             // "host", "opencl", "cuda"
  bool loaded = false;          // its library was found and initialized
  std::string reason;           // why it lists no devices, e.g. "libOpenCL.so.1 not found"
  std::vector<Device> devices;  // the devices WEFT_BACKENDS allows
};

/// Every backend weft knows, in a fixed order, each with its devices or the reason it has
/// none. Discovery runs once per process.
WEFT_API const std::vector<BackendStatus>& backends();
/// Every device of every loaded backend that WEFT_BACKENDS allows.
WEFT_API std::vector<Device> devices();
/// The device a selector names (see selector.hpp). Throws ConfigError for a malformed
/// selector and InvalidArgument, listing the devices present, when none matches.
WEFT_API Device device(std::string_view selector);
WEFT_API Device device(const DeviceSelector& selector);
/// The device WEFT_DEVICE names, or auto's choice when it is unset.
WEFT_API Device default_device();

}  // namespace weft
