// The registry of sort engine providers (sort_engine.hpp).
#include "runtime/sort_engine.hpp"

#include <mutex>
#include <vector>

namespace weft::detail {

namespace {

std::mutex sort_providers_mutex;
std::vector<SortEngineProvider>& sort_providers() {
  static std::vector<SortEngineProvider> list;  // filled by static registrations, before main
  return list;
}

}  // namespace

SortEngineRegistration::SortEngineRegistration(SortEngineProvider provider) {
  const std::lock_guard<std::mutex> lock(sort_providers_mutex);
  sort_providers().push_back(provider);
}

SortEngine* sort_engine(DeviceImpl& device) {
  for (SortEngineProvider p : sort_providers()) {
    if (SortEngine* e = p(device)) return e;
  }
  return nullptr;
}

}  // namespace weft::detail
