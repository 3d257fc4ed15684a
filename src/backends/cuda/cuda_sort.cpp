// The CUDA device's sort engine (runtime/sort_engine.hpp): CUB's radix sort in the plugin
// libweft_cub.so (src/backends/cuda/cub, built by nvcc when the CUDA toolkit is there), opened
// at the first sort on a CUDA device from the folder of the binary weft is in (libweft, or a
// program that links weft statically). Without it CUDA devices sort with weft's own kernels
// (one WEFT_LOG=info line says why). CUB runs on the stream of weft's queue, in the current context: weft makes the
// device's primary context current, the one the CUDA runtime inside the plugin binds to.
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "backends/cuda/cub/weft_cub.h"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_memory.hpp"
#include "backends/cuda/cuda_queue.hpp"
#include "core/lifetime.hpp"
#include "core/log.hpp"
#include "core/process.hpp"
#include "runtime/device_local.hpp"
#include "runtime/sort_engine.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

struct Plugin {
  const weft_cub_api* api = nullptr;
  std::string path;
};

Plugin load_plugin() {
  Plugin p;
  p.path = (libweft_folder() / "libweft_cub.so").string();
  void* lib = ::dlopen(p.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = ::dlerror();
    WEFT_LOG_INFO("sort: libweft_cub not loaded (" << (why ? why : p.path)
                                                    << "): CUDA devices sort with weft's radix sort kernels");
    return p;
  }
  using Entry = const weft_cub_api* (*)();
  auto entry = reinterpret_cast<Entry>(::dlsym(lib, "weft_cub_api_v1"));
  const weft_cub_api* api = entry ? entry() : nullptr;
  if (!api || api->abi_version != WEFT_CUB_ABI_VERSION) {
    WEFT_LOG_INFO("sort: " << p.path << " is not a libweft_cub of ABI " << WEFT_CUB_ABI_VERSION
                           << ": CUDA devices sort with weft's radix sort kernels");
    return p;
  }
  // A size query starts the plugin's CUDA runtime: a driver too old for it fails here.
  weft_cub_sort_job probe{};
  probe.struct_size = sizeof probe;
  probe.key_bytes = 4;
  probe.count = 2;
  std::size_t bytes = 0;
  if (const int r = api->sort(&probe, nullptr, &bytes); r != 0) {
    WEFT_LOG_INFO("sort: " << p.path << " cannot run here (" << api->result_name(r)
                           << "): CUDA devices sort with weft's radix sort kernels");
    return p;
  }
  p.api = api;
  WEFT_LOG_INFO("sort: CUDA devices sort with " << api->version() << " from " << p.path);
  return p;
}

// Loaded at the first sort on a CUDA device, with that device's context current.
const Plugin& plugin(const CudaDevice& device) {
  static const Plugin loaded = [&] {
    device.make_current();
    return load_plugin();
  }();
  return loaded;
}

std::int32_t key_kind(DType t) {
  if (is_floating(t)) return WEFT_CUB_FLOAT;
  if (is_signed_integer(t)) return WEFT_CUB_SIGNED;
  return WEFT_CUB_UNSIGNED;
}

void* address(const BufferPtr& b) {
  return b ? reinterpret_cast<void*>(static_cast<std::uintptr_t>(static_cast<CudaBuffer&>(*b).ptr())) : nullptr;
}

weft_cub_sort_job job_of(const SortDesc& d, void* stream) {
  weft_cub_sort_job j{};
  j.struct_size = sizeof j;
  j.key_kind = key_kind(d.key_type);
  j.key_bytes = static_cast<std::uint32_t>(size_of(d.key_type));
  j.descending = d.descending ? 1 : 0;
  j.count = d.count;
  j.row_len = d.row_len;
  j.keys_in = address(d.keys_in);
  j.keys_out = address(d.keys_out);
  j.payload_bytes = static_cast<std::uint32_t>(d.payload_size);
  j.payload_index = d.payload_index ? 1 : 0;
  j.payload_in = d.payload_index ? nullptr : address(d.payload_in);
  j.payload_out = address(d.payload_out);
  j.stream = stream;
  return j;
}

class CubSortEngine final : public SortEngine {
 public:
  CubSortEngine(CudaDevice& device, const weft_cub_api& api) : device_(device), api_(api) {}
  std::string library() const override { return api_.version(); }

  std::optional<std::size_t> scratch_bytes(const SortDesc& desc) override {
    if (is_complex(desc.key_type)) return std::nullopt;
    device_.make_current();
    const weft_cub_sort_job j = job_of(desc, nullptr);
    std::size_t bytes = 0;
    const int r = api_.sort(&j, nullptr, &bytes);
    if (r == WEFT_CUB_UNSUPPORTED) return std::nullopt;
    check(r, "weft_cub sort (size query)");
    return std::max<std::size_t>(bytes, 1);
  }

  EventPtr execute(QueueImpl& queue, const SortDesc& desc, const BufferPtr& scratch,
                   std::span<const EventPtr> wait) override {
    auto& cq = static_cast<CudaQueue&>(queue);
    return cq.enqueue_library(
        [&](cu::CUstream stream) {
          const weft_cub_sort_job j = job_of(desc, stream);
          std::size_t bytes = scratch->size();
          check(api_.sort(&j, address(scratch), &bytes), "weft_cub sort");
        },
        wait);
  }

 private:
  void check(int result, const char* call) const {
    if (result == 0) return;
    const std::string name = api_.result_name(result);
    const std::string msg = std::string(call) + " failed: " + name + " (" + api_.version() + ")";
    if (name == "cudaErrorMemoryAllocation") throw OutOfMemory(msg, 0, name, call);
    throw DeviceError(msg, name, call);
  }

  CudaDevice& device_;
  const weft_cub_api& api_;
};

// One engine per CUDA device while the plugin is there; none (weft's kernels) without it.
SortEngine* cuda_sort_engine(DeviceImpl& device) {
  auto* cuda = dynamic_cast<CudaDevice*>(&device);
  if (!cuda) return nullptr;
  const Plugin& p = plugin(*cuda);
  if (!p.api) return nullptr;
  static Immortal<DeviceLocal<CubSortEngine>> engines([](const Device& d) {
    auto& cd = static_cast<CudaDevice&>(*d.impl());
    return std::make_shared<CubSortEngine>(cd, *plugin(cd).api);
  });
  return &engines->get(Device(device.shared_from_this()));
}

const SortEngineRegistration cuda_sort_registration(cuda_sort_engine);

}  // namespace

}  // namespace weft::detail
