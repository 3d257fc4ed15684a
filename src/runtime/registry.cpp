// The backend registry: backends register a factory at static-initialization time; the
// first call to backends() runs each allowed factory once and keeps what it found.
#include <algorithm>
#include <mutex>

#include "core/lifetime.hpp"
#include "core/log.hpp"
#include "runtime/backend.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft {

namespace detail {
namespace {
struct Registration {
  std::string name;
  int order;
  BackendFactory factory;
};

std::vector<Registration>& registrations() {
  static std::vector<Registration> list;
  return list;
}

// One registered backend, probed at most once, when first needed: a process that asks for
// `host` never pays for CUDA's or OpenCL's initialization.
struct Slot {
  Registration reg;
  std::once_flag once;
  BackendStatus status;
  std::unique_ptr<BackendImpl> backend;  // keeps the backend alive
};

// Never destroyed (core/lifetime.hpp): devices outlive every object that may use them at exit.
std::vector<std::unique_ptr<Slot>>& slots() {
  static Immortal<std::vector<std::unique_ptr<Slot>>> list([] {
    auto regs = registrations();
    std::stable_sort(regs.begin(), regs.end(),
                     [](const Registration& a, const Registration& b) { return a.order < b.order; });
    std::vector<std::unique_ptr<Slot>> out;
    for (auto& r : regs) {
      auto slot = std::make_unique<Slot>();
      slot->reg = std::move(r);
      out.push_back(std::move(slot));
    }
    return out;
  }());
  return *list;
}

void probe(Slot& slot) {
  std::call_once(slot.once, [&] {
    const Config& cfg = config();
    BackendStatus& status = slot.status;
    status.name = slot.reg.name;
    if (!cfg.backend_allowed(slot.reg.name)) {
      status.reason = "not loaded: WEFT_BACKENDS leaves it out";
      return;
    }
    try {
      auto backend = slot.reg.factory();
      status.loaded = true;
      for (auto& dev : backend->devices()) {
        if (cfg.device_allowed(slot.reg.name, dev->info().type)) status.devices.emplace_back(std::move(dev));
      }
      if (status.devices.empty()) status.reason = "no devices found";
      slot.backend = std::move(backend);
    } catch (const std::exception& e) {
      status.reason = e.what();
    }
    WEFT_LOG_DEBUG("backend " << slot.reg.name << ": "
                              << (status.loaded ? std::to_string(status.devices.size()) + " device(s)" : status.reason));
  });
}

/// The devices of one backend ("" for every backend), probing only what is needed.
std::vector<Device> devices_of(std::string_view backend) {
  config();  // a malformed WEFT_* value is reported by every entry point
  std::vector<Device> out;
  for (auto& slot : slots()) {
    if (!backend.empty() && slot->reg.name != backend) continue;
    probe(*slot);
    out.insert(out.end(), slot->status.devices.begin(), slot->status.devices.end());
  }
  return out;
}

std::string list_devices() {
  std::string out;
  for (const auto& d : devices_of("")) {
    if (!out.empty()) out += ", ";
    out += d.selector() + " (" + d.name() + ")";
  }
  return out.empty() ? "none" : out;
}

int auto_rank(const Device& d) {
  // Today's policy for `auto`: a GPU before the host, a GPU's native interface (CUDA) before
  // a portable one (OpenCL), the host backend before OpenCL CPU devices (PoCL). The measured,
  // cost-model choice comes later.
  const auto& i = d.info();
  if (i.type == DeviceType::gpu) return i.capabilities.native_api ? 0 : 1;
  if (i.capabilities.native_api) return 2;
  return 3;
}
}  // namespace

BackendRegistration::BackendRegistration(std::string name, int order, BackendFactory factory) {
  registrations().push_back({std::move(name), order, std::move(factory)});
}

}  // namespace detail

const std::vector<BackendStatus>& backends() {
  static const std::vector<BackendStatus> all = [] {
    detail::devices_of("");
    std::vector<BackendStatus> out;
    for (auto& slot : detail::slots()) out.push_back(slot->status);
    return out;
  }();
  return all;
}

std::vector<Device> devices() { return detail::devices_of(""); }

Device device(std::string_view selector) { return device(DeviceSelector::parse(selector)); }

namespace {
Device device_itself(const DeviceSelector& sel);
}  // namespace

Device device(const DeviceSelector& sel) {
  Device d = device_itself(sel);
  for (const int s : sel.sub_devices()) {
    const std::string want = d.selector() + "/" + std::to_string(s);
    const auto subs = d.sub_devices();
    const auto it = std::find_if(subs.begin(), subs.end(), [&](const Device& x) { return x.selector() == want; });
    if (it == subs.end()) {
      std::string have;
      for (const auto& x : subs) have += (have.empty() ? "" : ", ") + x.selector();
      throw InvalidArgument("no device matches selector '" + sel.text() + "': " + d.selector() +
                            (subs.empty() ? " has no sub-devices now (make them first: Device::partition, "
                                            "Device.create_sub_devices in Python)"
                                          : " has no sub-device " + std::to_string(s) + " now (it has " + have + ")"));
    }
    d = *it;
  }
  return d;
}

namespace {
Device device_itself(const DeviceSelector& sel) {
  using Kind = DeviceSelector::Kind;
  const auto all = detail::devices_of(sel.backend());
  auto no_match = [&]() -> InvalidArgument {
    return InvalidArgument("no device matches selector '" + sel.text() +
                           "'; devices present: " + detail::list_devices());
  };
  if (sel.kind() == Kind::automatic) {
    if (all.empty()) throw no_match();
    auto best = std::min_element(all.begin(), all.end(), [](const Device& a, const Device& b) {
      return detail::auto_rank(a) < detail::auto_rank(b);
    });
    WEFT_LOG_DEBUG("auto chose " << best->selector() << " (" << best->name() << ")");
    return *best;
  }
  for (const auto& d : all) {
    const auto& i = d.info();
    if (i.backend != sel.backend()) continue;
    switch (sel.kind()) {
      case Kind::host:
      case Kind::opencl_any:
      case Kind::cuda_any: return d;
      case Kind::opencl_type:
        if (i.type == sel.type()) return d;
        break;
      case Kind::opencl_platform:
        if (i.selector.rfind("opencl:" + std::to_string(sel.platform()) + ":", 0) == 0) return d;
        break;
      case Kind::opencl_index:
        if (i.selector == "opencl:" + std::to_string(sel.platform()) + ":" +
                              std::to_string(sel.index())) {
          return d;
        }
        break;
      case Kind::cuda_index:
        if (i.selector == "cuda:" + std::to_string(sel.index())) return d;
        break;
      case Kind::automatic: break;
    }
  }
  throw no_match();
}
}  // namespace

Device default_device() {
  const Device d = device(config().device);
  WEFT_LOG_DEBUG("default device: " << d.selector() << " (" << d.name() << ")");
  return d;
}

}  // namespace weft
