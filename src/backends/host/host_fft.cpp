#include "backends/host/host_fft.hpp"

#include <algorithm>

#include "backends/host/host_device.hpp"
#include "backends/host/host_queue.hpp"
#include "core/lifetime.hpp"
#include "runtime/device_local.hpp"

namespace weft::detail {

EventPtr HostFftEngine::execute(QueueImpl& queue, const FftDesc& desc, const BufferPtr& in, const BufferPtr& out,
                                std::span<const EventPtr> wait) {
  // The command holds the buffers: they live until the transform has run.
  return static_cast<HostQueue&>(queue).enqueue_work(
      [desc, in, out, threads = threads_] { run_pocketfft(desc, in->host_ptr(), out->host_ptr(), threads); }, wait);
}

namespace {

// One engine per host device, running pocketfft on as many threads as the device has.
FftEngine* host_engine(DeviceImpl& device) {
  if (!dynamic_cast<HostDevice*>(&device)) return nullptr;
  static Immortal<DeviceLocal<HostFftEngine>> engines([](const Device& d) {
    return std::make_shared<HostFftEngine>(std::max<std::size_t>(d.info().compute_units, 1));
  });
  return &engines->get(Device(device.shared_from_this()));
}

const FftEngineRegistration host_fft_registration(host_engine);

}  // namespace

}  // namespace weft::detail
