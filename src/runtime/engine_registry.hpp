// The registry behind sort_engine.hpp and fft_engine.hpp: the providers that backends register
// from static objects before main, asked in registration order for a device's engine.
#pragma once

#include <mutex>
#include <vector>

namespace weft::detail {

class DeviceImpl;

template <class Engine>
class EngineRegistry {
 public:
  /// A backend's answer for a device: its engine when it has one for the device, else null.
  using Provider = Engine* (*)(DeviceImpl& device);

  static void add(Provider provider) {
    const std::lock_guard<std::mutex> lock(mutex());
    providers().push_back(provider);
  }

  /// The first provider's engine for device, or null. (Unlocked: every registration ran
  /// before main.)
  static Engine* find(DeviceImpl& device) {
    for (const Provider p : providers()) {
      if (Engine* e = p(device)) return e;
    }
    return nullptr;
  }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::vector<Provider>& providers() {
    static std::vector<Provider> list;
    return list;
  }
};

}  // namespace weft::detail
