#include "backends/cuda/cuda_backend.hpp"

#include <algorithm>

#include "backends/cuda/cuda_compiler.hpp"
#include "core/log.hpp"
#include "dialect/translate.hpp"
#include "runtime/completion_event.hpp"
#include "weft/error.hpp"

namespace weft::detail {

using namespace cu;

namespace {

int attribute(CUdevice d, int which) {
  int v = 0;
  driver().cuDeviceGetAttribute(&v, which, d);
  return v;
}

class CudaBackend final : public BackendImpl {
 public:
  CudaBackend() {
    const Driver& drv = driver();  // throws Unsupported: no libcuda, no device
    int count = 0;
    check(drv.cuDeviceGetCount(&count), "cuDeviceGetCount");
    int version = 0;
    drv.cuDriverGetVersion(&version);
    std::string nvrtc = "NVRTC missing";
    try {
      nvrtc = "NVRTC " + nvrtc_version();
    } catch (const Unsupported& e) {
      WEFT_LOG_WARNING("cuda: " << e.what() << "; CUDA devices are listed but cannot build kernels");
    }
    for (int i = 0; i < count; ++i) {
      CUdevice dev = 0;
      check(drv.cuDeviceGet(&dev, i), "cuDeviceGet");
      char name[256] = {};
      drv.cuDeviceGetName(name, sizeof name, dev);
      const int major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
      const int minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
      DeviceInfo info;
      info.name = name;
      info.vendor = "NVIDIA";
      info.backend = "cuda";
      info.selector = "cuda:" + std::to_string(i);
      info.type = DeviceType::gpu;
      info.compute_units = static_cast<unsigned>(attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
      std::size_t total = 0;
      drv.cuDeviceTotalMem(&total, dev);
      info.global_mem_bytes = total;
      info.max_alloc_bytes = total;
      info.local_mem_bytes = static_cast<std::uint64_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
      info.max_work_group_size = static_cast<std::size_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
      info.fp64 = true;
      info.fp16 = false;  // the dialect's half is not mapped onto CUDA yet
      const std::string arch = "sm_" + std::to_string(major) + std::to_string(minor);
      info.platform = "CUDA driver " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) +
                      ", " + nvrtc;
      info.driver_version = info.platform + ", " + arch;
      info.nvidia_arch = static_cast<unsigned>(10 * major + minor);
      DeviceCapabilities& caps = info.capabilities;
      caps.has_barriers = true;
      caps.addressable_memory = true;  // device pointers
      caps.native_ptx = true;          // the CUDA prelude defines WEFT_PTX
      caps.inline_ptx = true;
      caps.native_api = true;
      caps.dlpack_device_type = 2;  // kDLCUDA
      caps.dlpack_device_id = i;
      CUcontext ctx = nullptr;
      check(drv.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
      devices_.push_back(std::make_shared<CudaDevice>(std::move(info), dev, ctx, arch));
    }
  }
  std::vector<std::shared_ptr<DeviceImpl>> devices() override { return devices_; }

 private:
  std::vector<std::shared_ptr<DeviceImpl>> devices_;
};

const BackendRegistration registration("cuda", 20, [] { return std::make_unique<CudaBackend>(); });

}  // namespace

// ---- events pool and callbacks -------------------------------------------------------------

CudaEventPool::~CudaEventPool() {
  device_.make_current();
  for (auto e : timing_) driver().cuEventDestroy(e);
  for (auto e : plain_) driver().cuEventDestroy(e);
}

CUevent CudaEventPool::take(bool timing) {
  {
    std::lock_guard lock(mutex_);
    auto& list = timing ? timing_ : plain_;
    if (!list.empty()) {
      CUevent e = list.back();
      list.pop_back();
      return e;
    }
  }
  CUevent e = nullptr;
  check(driver().cuEventCreate(&e, timing ? 0u : CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return e;
}

void CudaEventPool::give(CUevent e, bool timing) {
  std::lock_guard lock(mutex_);
  (timing ? timing_ : plain_).push_back(e);
}

CudaCallbackThread::CudaCallbackThread(CudaDevice& device) : device_(device) {
  thread_ = std::thread([this] { loop(); });
}

CudaCallbackThread::~CudaCallbackThread() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void CudaCallbackThread::add(CUevent event, std::shared_ptr<void> keeper, std::function<void()> callback) {
  {
    std::lock_guard lock(mutex_);
    items_.push_back({event, std::move(keeper), std::move(callback)});
  }
  cv_.notify_one();
}

void CudaCallbackThread::loop() {
  device_.make_current();
  while (true) {
    Item item;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return stop_ || !items_.empty(); });
      if (items_.empty()) return;
      item = std::move(items_.front());
      items_.pop_front();
    }
    driver().cuEventSynchronize(item.event);
    try {
      item.callback();
    } catch (const std::exception& e) {
      WEFT_LOG_WARNING("an event callback threw: " << e.what());
    } catch (...) {
      WEFT_LOG_WARNING("an event callback threw");
    }
  }
}

// ---- device ------------------------------------------------------------------------------

CudaDevice::CudaDevice(DeviceInfo info, CUdevice device, CUcontext context, std::string arch)
    : DeviceImpl(std::move(info)), device_(device), context_(context), arch_(std::move(arch)), events_(*this) {
  make_current();
  // The anchor ties device timestamps to the host clock: recorded and synchronized once.
  check(driver().cuEventCreate(&anchor_, 0), "cuEventCreate");
  check(driver().cuEventRecord(anchor_, nullptr), "cuEventRecord");
  check(driver().cuEventSynchronize(anchor_), "cuEventSynchronize");
  anchor_host_ns_ = now_ns();
  callbacks_ = std::make_unique<CudaCallbackThread>(*this);
}

CudaDevice::~CudaDevice() {
  callbacks_.reset();
  builder_.clear();  // modules unload while the context still exists
  make_current();
  if (anchor_) driver().cuEventDestroy(anchor_);
  driver().cuDevicePrimaryCtxRelease(device_);
}

void CudaDevice::make_current() const {
  thread_local CUcontext current = nullptr;
  if (current != context_) {
    check(driver().cuCtxSetCurrent(context_), "cuCtxSetCurrent");
    current = context_;
  }
}

std::uint64_t CudaDevice::host_time_of(CUevent e) const {
  float ms = 0;
  if (driver().cuEventElapsedTime(&ms, anchor_, e) != CUDA_SUCCESS) return 0;
  return anchor_host_ns_ + static_cast<std::uint64_t>(static_cast<double>(ms) * 1e6);
}

std::shared_ptr<QueueImpl> CudaDevice::create_queue(const QueueOptions& options) {
  make_current();
  return std::make_shared<CudaQueue>(std::static_pointer_cast<CudaDevice>(shared_from_this()), options);
}

BufferPtr CudaDevice::wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) {
  if (!owner) owner = std::make_shared<int>(0);  // marks the memory as not ours to free
  return std::make_shared<CudaBuffer>(std::static_pointer_cast<CudaDevice>(shared_from_this()), bytes,
                                      static_cast<CUdeviceptr>(address), std::move(owner));
}

BufferPtr CudaDevice::allocate(std::size_t bytes) {
  make_current();
  CUdeviceptr ptr = 0;
  if (bytes > 0) {
    // A request beyond the device's memory is refused without asking the driver (which
    // would report an API error to tools such as compute-sanitizer).
    const CUresult r = bytes > info_.global_mem_bytes ? CUDA_ERROR_OUT_OF_MEMORY : driver().cuMemAlloc(&ptr, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      std::size_t free_bytes = 0, total = 0;
      driver().cuMemGetInfo(&free_bytes, &total);
      throw OutOfMemory(info_.selector + " (" + info_.name + "): cannot allocate " + std::to_string(bytes) +
                            " bytes; " + std::to_string(free_bytes) + " of " + std::to_string(total) + " bytes are free",
                        bytes, "CUDA_ERROR_OUT_OF_MEMORY", "cuMemAlloc");
    }
    check(r, "cuMemAlloc");
  }
  return std::make_shared<CudaBuffer>(std::static_pointer_cast<CudaDevice>(shared_from_this()), bytes, ptr);
}

namespace {
class CudaPinned final : public PinnedImpl {
 public:
  CudaPinned(std::shared_ptr<CudaDevice> device, void* data, std::size_t size)
      : PinnedImpl(data, size), device_(std::move(device)) {}
  ~CudaPinned() override {
    device_->make_current();
    driver().cuMemFreeHost(data());
  }

 private:
  std::shared_ptr<CudaDevice> device_;
};
}  // namespace

std::shared_ptr<PinnedImpl> CudaDevice::allocate_pinned(std::size_t bytes) {
  make_current();
  void* p = nullptr;
  const CUresult r = driver().cuMemAllocHost(&p, std::max<std::size_t>(bytes, 1));
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    throw OutOfMemory("cannot pin " + std::to_string(bytes) + " bytes of host memory for " + info_.selector, bytes,
                      "CUDA_ERROR_OUT_OF_MEMORY", "cuMemAllocHost");
  }
  check(r, "cuMemAllocHost");
  return std::make_shared<CudaPinned>(std::static_pointer_cast<CudaDevice>(shared_from_this()), p, bytes);
}

CudaBuffer::~CudaBuffer() {
  if (!ptr_ || owner_) return;
  static_cast<CudaDevice&>(*device()).make_current();
  driver().cuMemFree(ptr_);
}

CudaModule::~CudaModule() {
  if (auto d = device_.lock()) {
    d->make_current();
    driver().cuModuleUnload(module_);
  }
}

// ---- programs and kernels ------------------------------------------------------------------

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
  return std::make_shared<CudaKernel>(it->first, it->second.params, module_, f, static_cast<std::size_t>(max_threads),
                                      private_bytes);
}

CudaKernel::CudaKernel(std::string name, std::vector<KernelArgInfo> params, std::shared_ptr<CudaModule> module,
                       CUfunction function, std::size_t max_threads, std::optional<std::size_t> private_bytes)
    : KernelImpl(std::move(name), std::move(params)), module_(std::move(module)), function_(function),
      max_threads_(max_threads ? max_threads : 1), private_bytes_(private_bytes) {}

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
