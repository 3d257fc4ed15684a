// The host device's Fourier transforms: pocketfft (runtime/pocketfft_run.cpp) on the
// buffers' memory, run as a command of the queue (after its wait list, in order).
#pragma once

#include <cstddef>

#include "runtime/fft_engine.hpp"

namespace weft::detail {

class HostFftEngine final : public FftEngine {
 public:
  explicit HostFftEngine(std::size_t threads) : threads_(threads) {}
  std::string library() const override { return "pocketfft"; }
  bool general_layout() const override { return true; }
  bool scales() const override { return true; }
  bool conjugated_real() const override { return true; }
  EventPtr execute(QueueImpl& queue, const FftDesc& desc, const BufferPtr& in, const BufferPtr& out,
                   std::span<const EventPtr> wait) override;

 private:
  std::size_t threads_;
};

}  // namespace weft::detail
