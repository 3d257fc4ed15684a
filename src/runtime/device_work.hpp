// The device last given work in this process (every command of a CUDA or OpenCL queue on a
// device that is not a CPU notes its device; the host backend's and a CPU OpenCL device's
// (PoCL) do not: they leave the GPU's current context as it was). The placement
// model's switch term reads it (include/weft/placement.hpp, DeviceCosts::switch_after): where
// two drivers share one GPU (CUDA and NVIDIA OpenCL), the first command in one context after
// work in the other waits for the GPU to switch contexts (about 130 us on an H200).
#pragma once

#include <atomic>

namespace weft::detail {

inline std::atomic<const void*> last_device_work_at{nullptr};

/// Notes that device (a DeviceImpl; cpu: its type is DeviceType::cpu, which is not noted) was
/// given a command: one relaxed load when it was the last already (the common case), a store
/// otherwise.
inline void note_device_work(const void* device, bool cpu) noexcept {
  if (cpu) return;
  if (last_device_work_at.load(std::memory_order_relaxed) != device) {
    last_device_work_at.store(device, std::memory_order_relaxed);
  }
}

/// The DeviceImpl last given a command; null when none yet.
inline const void* last_device_work() noexcept { return last_device_work_at.load(std::memory_order_relaxed); }

}  // namespace weft::detail
