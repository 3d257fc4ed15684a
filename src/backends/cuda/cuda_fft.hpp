// The CUDA device's Fourier transforms: cuFFT (cufft_api.hpp), one plan per transform shape,
// kind, precision and stream, made on first use and kept (up to kMaxPlans per device, the
// least recently used destroyed first). A plan owns cuFFT's work area; two streams never
// share one (cuFFT's work area is per plan), and one plan runs one exec at a time.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/cufft_api.hpp"
#include "runtime/fft_engine.hpp"

namespace weft::detail {

class CudaDevice;

/// A cuFFT plan handle, destroyed with its owner.
class CufftPlan {
 public:
  CufftPlan();
  ~CufftPlan();
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  cufft::cufftHandle get() const noexcept { return handle_; }

 private:
  cufft::cufftHandle handle_ = -1;
};

class CudaFftEngine final : public FftEngine {
 public:
  explicit CudaFftEngine(CudaDevice& device) : device_(device) {}
  std::string library() const override;
  bool general_layout() const override { return false; }
  bool scales() const override { return false; }
  bool conjugated_real() const override { return false; }
  EventPtr execute(QueueImpl& queue, const FftDesc& desc, const BufferPtr& in, const BufferPtr& out,
                   std::span<const EventPtr> wait) override;
  static constexpr std::size_t kMaxPlans = 32;

 private:
  struct Key {
    fft::Kind kind;
    bool double_precision;
    std::vector<long long> dims;  // transformed extents (the real side's for r2c and c2r)
    long long batch;
    const void* stream;
    bool operator==(const Key&) const = default;
  };
  struct Entry {
    Key key;
    std::shared_ptr<CufftPlan> plan;
  };
  std::shared_ptr<CufftPlan> plan_for(const Key& key);

  CudaDevice& device_;
  std::mutex mutex_;        // the cache, and one exec at a time (cufftSetStream + exec)
  std::list<Entry> plans_;  // most recently used first
};

}  // namespace weft::detail
