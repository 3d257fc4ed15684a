// The seam between weft::fft (src/algorithms/fft.cpp) and the libraries that compute
// transforms: each backend with a library registers a provider that answers, for a device of
// its own, that device's engine (FftEngineRegistration, as backends register themselves);
// fft_engine(device) asks them. No engine (OpenCL): the host's pocketfft runs on a copy
// (run_pocketfft, which needs no device).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "runtime/backend.hpp"
#include "weft/fft.hpp"

namespace weft::detail {

/// A checked transform in the engines' terms: strides and offsets in bytes.
struct FftDesc {
  fft::Kind kind = fft::Kind::c2c;
  bool double_precision = false;
  std::vector<std::size_t> shape;  // logical (Transform::shape)
  std::vector<std::ptrdiff_t> in_strides, out_strides;
  std::size_t in_offset = 0, out_offset = 0;
  std::vector<std::size_t> axes;
  bool forward = true;
  double scale = 1.0;

  std::size_t real_size() const noexcept { return double_precision ? 8 : 4; }
  /// The shape of the complex side (r2c output, c2r input; c2c both).
  std::vector<std::size_t> complex_shape() const {
    std::vector<std::size_t> s = shape;
    if (kind != fft::Kind::c2c) s[axes.back()] = s[axes.back()] / 2 + 1;
    return s;
  }
};

class FftEngine {
 public:
  virtual ~FftEngine() = default;
  /// "pocketfft", "cuFFT 11.x".
  virtual std::string library() const = 0;
  /// Whether any strides and axes are taken (else: contiguous, transformed axes last, up to 3).
  virtual bool general_layout() const = 0;
  /// Whether desc.scale is applied by the library (else the caller scales the output).
  virtual bool scales() const = 0;
  /// Whether r2c with forward = false and c2r with forward = true are computed (else the
  /// caller conjugates: the c2r input before, the r2c output after).
  virtual bool conjugated_real() const = 0;
  /// Enqueues desc on queue (a queue of this engine's device) after wait.
  virtual EventPtr execute(QueueImpl& queue, const FftDesc& desc, const BufferPtr& in, const BufferPtr& out,
                           std::span<const EventPtr> wait) = 0;
};

/// A backend's answer for device: its engine when device is one of the backend's, else null.
/// It may throw Unsupported (the device's library cannot be loaded: the reason).
using FftEngineProvider = FftEngine* (*)(DeviceImpl& device);

/// A static object of this type in a backend's source registers its provider.
struct FftEngineRegistration {
  explicit FftEngineRegistration(FftEngineProvider provider);
};

/// The engine of device's library, or null where no backend has one for it.
FftEngine* fft_engine(DeviceImpl& device);

/// pocketfft on host memory, now, on the calling thread and up to threads more.
void run_pocketfft(const FftDesc& desc, const void* in, void* out, std::size_t threads);

}  // namespace weft::detail
