// Opening libweft_vqsort (host_vqsort.hpp).
#include "backends/host/host_vqsort.hpp"

#include <dlfcn.h>

#include <atomic>
#include <string>

#include "core/log.hpp"
#include "core/process.hpp"

namespace weft::detail {

namespace {

std::atomic<bool> enabled{true};

const weft_vqsort_api* load() {
  const std::string path = (libweft_folder() / "libweft_vqsort.so").string();
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = ::dlerror();
    WEFT_LOG_INFO("sort: libweft_vqsort not loaded (" << (why ? why : path) << "): the host sorts by its radix sort");
    return nullptr;
  }
  using Entry = const weft_vqsort_api* (*)();
  auto entry = reinterpret_cast<Entry>(::dlsym(lib, "weft_vqsort_api_v1"));
  const weft_vqsort_api* api = entry ? entry() : nullptr;
  if (!api || api->abi_version != WEFT_VQSORT_ABI_VERSION) {
    WEFT_LOG_INFO("sort: " << path << " is not a libweft_vqsort of ABI " << WEFT_VQSORT_ABI_VERSION
                           << ": the host sorts by its radix sort");
    return nullptr;
  }
  WEFT_LOG_INFO("sort: the host sorts keys with " << api->version() << " from " << path);
  return api;
}

}  // namespace

const weft_vqsort_api* host_vqsort() {
  static const weft_vqsort_api* const api = load();
  return enabled.load(std::memory_order_relaxed) ? api : nullptr;
}

bool set_host_vqsort(bool on) { return enabled.exchange(on, std::memory_order_relaxed); }

}  // namespace weft::detail
