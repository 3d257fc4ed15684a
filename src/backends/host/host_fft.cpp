#include "backends/host/host_fft.hpp"

#include "backends/host/host_queue.hpp"

namespace weft::detail {

EventPtr HostFftEngine::execute(QueueImpl& queue, const FftDesc& desc, const BufferPtr& in, const BufferPtr& out,
                                std::span<const EventPtr> wait) {
  // The command holds the buffers: they live until the transform has run.
  return static_cast<HostQueue&>(queue).enqueue_work(
      [desc, in, out, threads = threads_] { run_pocketfft(desc, in->host_ptr(), out->host_ptr(), threads); }, wait);
}

}  // namespace weft::detail
