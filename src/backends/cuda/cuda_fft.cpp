#include "backends/cuda/cuda_fft.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_memory.hpp"
#include "backends/cuda/cuda_queue.hpp"
#include "core/lifetime.hpp"
#include "runtime/device_local.hpp"
#include "weft/error.hpp"

namespace weft::detail {

CufftPlan::CufftPlan() { cufft::check(cufft::library().cufftCreate(&handle_), "cufftCreate"); }

CufftPlan::~CufftPlan() {
  if (handle_ >= 0) cufft::library().cufftDestroy(handle_);
}

std::string CudaFftEngine::library() const { return "cuFFT " + cufft::library().version; }

std::shared_ptr<CufftPlan> CudaFftEngine::plan_for(const Key& key) {
  for (auto it = plans_.begin(); it != plans_.end(); ++it) {
    if (it->key == key) {
      plans_.splice(plans_.begin(), plans_, it);
      return plans_.front().plan;
    }
  }
  const auto& lib = cufft::library();
  auto plan = std::make_shared<CufftPlan>();
  std::vector<long long> n = key.dims;
  int type = 0;
  switch (key.kind) {
    case fft::Kind::c2c: type = key.double_precision ? cufft::CUFFT_Z2Z : cufft::CUFFT_C2C; break;
    case fft::Kind::r2c: type = key.double_precision ? cufft::CUFFT_D2Z : cufft::CUFFT_R2C; break;
    case fft::Kind::c2r: type = key.double_precision ? cufft::CUFFT_Z2D : cufft::CUFFT_C2R; break;
  }
  std::size_t work = 0;
  // Null embeds: the basic layout, each transform contiguous after the previous one (the
  // complex side of r2c/c2r with n/2+1 in the last dimension).
  cufft::check(lib.cufftMakePlanMany64(plan->get(), static_cast<int>(n.size()), n.data(), nullptr, 1, 0, nullptr, 1,
                                       0, type, key.batch, &work),
               "cufftMakePlanMany64");
  plans_.push_front(Entry{key, plan});
  if (plans_.size() > kMaxPlans) plans_.pop_back();
  return plan;
}

EventPtr CudaFftEngine::execute(QueueImpl& queue, const FftDesc& desc, const BufferPtr& in, const BufferPtr& out,
                                std::span<const EventPtr> wait) {
  const std::size_t rank = desc.axes.size();
  const std::size_t ndim = desc.shape.size();
  Key key{desc.kind, desc.double_precision, {}, 1, nullptr};
  for (std::size_t d = 0; d < ndim; ++d) {
    if (d < ndim - rank) {
      key.batch *= static_cast<long long>(desc.shape[d]);
    } else {
      key.dims.push_back(static_cast<long long>(desc.shape[d]));
    }
  }
  const auto in_ptr = static_cast<CudaBuffer&>(*in).ptr() + desc.in_offset;
  const auto out_ptr = static_cast<CudaBuffer&>(*out).ptr() + desc.out_offset;
  auto* src = reinterpret_cast<void*>(static_cast<std::uintptr_t>(in_ptr));
  auto* dst = reinterpret_cast<void*>(static_cast<std::uintptr_t>(out_ptr));
  auto& cq = static_cast<CudaQueue&>(queue);
  const std::lock_guard<std::mutex> lock(mutex_);
  device_.make_current();
  return cq.enqueue_library(
      [&](cu::CUstream stream) {
        key.stream = stream;
        const auto plan = plan_for(key);
        const auto& lib = cufft::library();
        cufft::check(lib.cufftSetStream(plan->get(), stream), "cufftSetStream");
        const int dir = desc.forward ? cufft::CUFFT_FORWARD : cufft::CUFFT_INVERSE;
        const cufft::cufftHandle h = plan->get();
        switch (desc.kind) {
          case fft::Kind::c2c:
            cufft::check(desc.double_precision ? lib.cufftExecZ2Z(h, src, dst, dir) : lib.cufftExecC2C(h, src, dst, dir),
                         desc.double_precision ? "cufftExecZ2Z" : "cufftExecC2C");
            break;
          case fft::Kind::r2c:
            cufft::check(desc.double_precision ? lib.cufftExecD2Z(h, src, dst) : lib.cufftExecR2C(h, src, dst),
                         desc.double_precision ? "cufftExecD2Z" : "cufftExecR2C");
            break;
          case fft::Kind::c2r:
            cufft::check(desc.double_precision ? lib.cufftExecZ2D(h, src, dst) : lib.cufftExecC2R(h, src, dst),
                         desc.double_precision ? "cufftExecZ2D" : "cufftExecC2R");
            break;
        }
      },
      wait);
}

namespace {

// One engine (and plan cache) per CUDA device, made at its first transform; cuFFT is loaded
// then (Unsupported with the reason where it cannot be). Kept for the process, as devices are.
FftEngine* cuda_engine(DeviceImpl& device) {
  auto* cuda = dynamic_cast<CudaDevice*>(&device);
  if (!cuda) return nullptr;
  (void)cufft::library();
  static Immortal<DeviceLocal<CudaFftEngine>> engines([](const Device& d) {
    return std::make_shared<CudaFftEngine>(static_cast<CudaDevice&>(*d.impl()));
  });
  return &engines->get(Device(device.shared_from_this()));
}

const FftEngineRegistration cuda_fft_registration(cuda_engine);

}  // namespace

}  // namespace weft::detail
