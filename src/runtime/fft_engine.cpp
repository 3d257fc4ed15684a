// The registry of FFT engine providers (fft_engine.hpp).
#include "runtime/fft_engine.hpp"

#include <mutex>
#include <vector>

namespace weft::detail {

namespace {

std::mutex fft_providers_mutex;
std::vector<FftEngineProvider>& fft_providers() {
  static std::vector<FftEngineProvider> list;  // filled by static registrations, before main
  return list;
}

}  // namespace

FftEngineRegistration::FftEngineRegistration(FftEngineProvider provider) {
  const std::lock_guard<std::mutex> lock(fft_providers_mutex);
  fft_providers().push_back(provider);
}

FftEngine* fft_engine(DeviceImpl& device) {
  for (FftEngineProvider p : fft_providers()) {
    if (FftEngine* e = p(device)) return e;
  }
  return nullptr;
}

}  // namespace weft::detail
