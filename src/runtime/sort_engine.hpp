// The seam between weft's radix sort (src/algorithms/radix_sort.cpp) and a device library
// that sorts faster: a backend with one registers a provider that answers, for a device of
// its own, that device's engine (as FFT engines register: fft_engine.hpp); sort_engine(device)
// asks them. No engine, or an engine that declines a job: weft's own radix sort kernels.
// The CUDA backend's engine is CUB's radix sort in the plugin libweft_cub (cuda_sort.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "runtime/backend.hpp"
#include "weft/dtype.hpp"

namespace weft::detail {

/// A checked sort (radix_sort.hpp's RadixSortJob in the engines' terms): count keys of
/// key_type from keys_in into keys_out (may be the same buffer), sorted within rows of row_len
/// (0: one row), stable, with an optional payload of payload_size bytes, or each key's flat
/// int64 index (payload_index), moved the same way. The buffers hold at least the job's bytes.
struct SortDesc {
  DType key_type = DType::uint32;
  std::size_t count = 0;
  std::size_t row_len = 0;
  bool descending = false;
  BufferPtr keys_in, keys_out;
  std::size_t payload_size = 0;
  bool payload_index = false;
  BufferPtr payload_in, payload_out;
};

class SortEngine {
 public:
  virtual ~SortEngine() = default;
  /// "CUB 3.0.1 (CUDA 13.0)".
  virtual std::string library() const = 0;
  /// The scratch bytes the engine needs for desc, or std::nullopt where it does not sort such
  /// jobs (weft's kernels sort them).
  virtual std::optional<std::size_t> scratch_bytes(const SortDesc& desc) = 0;
  /// Enqueues desc on queue (of this engine's device) after wait, with scratch (a buffer of at
  /// least scratch_bytes(desc) bytes, kept alive by the caller until the returned event).
  virtual EventPtr execute(QueueImpl& queue, const SortDesc& desc, const BufferPtr& scratch,
                           std::span<const EventPtr> wait) = 0;
};

/// A backend's answer for device: its engine when it has one for the device, else null.
using SortEngineProvider = SortEngine* (*)(DeviceImpl& device);

/// A static object of this type in a backend's source registers its provider.
struct SortEngineRegistration {
  explicit SortEngineRegistration(SortEngineProvider provider);
};

/// The engine of device's library, or null where no backend has one for it.
SortEngine* sort_engine(DeviceImpl& device);

}  // namespace weft::detail
