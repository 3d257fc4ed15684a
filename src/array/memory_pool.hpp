// The array layer's memory: a pool of blocks per device (WEFT_MEMORY_LIMIT caps it), the
// record of where an allocation's valid copies are, and the transfer counters.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "weft/buffer.hpp"
#include "weft/memory.hpp"
#include "weft/queue.hpp"

namespace weft::detail {

class BufferImpl;

class MemoryPool : public std::enable_shared_from_this<MemoryPool> {
 public:
  MemoryPool(Device device, std::uint64_t limit) : device_(std::move(device)), limit_(limit) {}
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  /// A block of at least bytes for count elements of dtype; what() describes the request
  /// for an OutOfMemory message (called only when one is thrown).
  Buffer allocate(std::size_t bytes, DType dtype, const std::function<std::string()>& what);
  MemoryStats stats() const;
  /// Frees every cached block (after the device's array queue has drained).
  void release_cached();

  /// The size the pool rounds a request to: 512-byte steps up to 4 KiB, then eight steps per
  /// power of two (at most 12.5% more than asked).
  static std::size_t size_class(std::size_t bytes);

 private:
  void take_back(std::shared_ptr<BufferImpl> block);
  std::vector<std::shared_ptr<BufferImpl>> take_cached_locked(std::size_t at_least);

  Device device_;
  std::uint64_t limit_;
  mutable std::mutex mutex_;
  std::map<std::size_t, std::vector<std::shared_ptr<BufferImpl>>> cache_;
  MemoryStats stats_;
};

/// The pool of device (made on first use, with the configured limit).
MemoryPool& memory_pool(const Device& device);

enum class Transfer { to_device, to_host, between_devices };
void count_transfer(Transfer kind, std::size_t bytes);

/// Where the valid copies of one allocation are. Views of the allocation share it; an array
/// moved to another device with Array::to gets a copy there, filled when first read.
struct Residence {
  struct Copy {
    Device device;
    Buffer buffer;
    bool valid = true;
    // The program's wait count (runtime/program_waits.hpp) when this copy was last made
    // current by a transfer: for borrowed memory, a copy made since the program's last wait
    // still holds the owner's data (the owner writes only after a wait).
    std::uint64_t fresh_at = ~std::uint64_t{0};
  };
  explicit Residence(Buffer first) : bytes(first.size()) { copies.push_back({first.device(), std::move(first), true}); }

  std::size_t bytes;
  std::atomic<bool> spread{false};  // a copy exists on more than one device
  std::atomic<bool> automatic{false};  // device auto: each operation reading it chooses where it runs
  // The first copy is host memory someone else owns and may write without telling weft (a
  // NumPy array used in place, Array::borrow_host), after a wait of the program's: a copy on
  // another device made before the program's last wait is refreshed from it when the
  // allocation is next seen from there (Array::to) while it is valid.
  std::atomic<bool> borrowed{false};
  // Borrowed memory that another borrowed allocation overlaps (src/array/host_regions.hpp):
  // writes through it reach the other's copies (note_written).
  std::atomic<bool> overlapped{false};
  // The array queue's command count on the first copy's device (DeviceOrder::array_work) when
  // an operation made the allocation there as its result (Array::empty); not_tracked for
  // memory made otherwise (wrapped, borrowed). Device auto counts a result made within the
  // last few commands of a queue still busy as pending there: an operation on it queued behind
  // its producer pays a queued launch (include/weft/placement.hpp, InputResidence::pending_on).
  static constexpr std::uint64_t not_tracked = ~std::uint64_t{0};
  std::atomic<std::uint64_t> made_at{not_tracked};
  // The automatic operation that made it as its result, as its chain and step (its chain's
  // number << 8 | the step's index, src/placement/chain_trace.hpp); 0: none.
  std::atomic<std::uint64_t> made_by{0};
  std::mutex mutex;
  std::vector<Copy> copies;
};

/// Makes the copy held in buffer current (copies the allocation from a valid copy if it is
/// stale). Cheap when the allocation lives on one device.
void make_current(Residence& r, const Buffer& buffer);
/// One copy a kernel is about to read: make_current_all's argument.
struct WantedCopy {
  Residence* residence;
  const Buffer* buffer;
};
/// make_current for each of several copies a kernel reads (each allocation once), the reads
/// into host memory from devices whose reads are cheaper so (DeviceCapabilities::
/// reads_queue_together) queued together and waited for once: three inputs of a host operation
/// resident on PoCL took 45-58 us read one after the other (each read a round trip to the
/// device's queue), 24 together, where a single read took 14-20. Small reads from a device
/// whose reads go through pinned memory (DeviceCapabilities::reads_through_pinned: CUDA, OpenCL
/// GPUs) are queued together into its pinned block (runtime/small_reads.hpp) and copied out
/// after the one wait: three of 400 bytes from the H200's GPUs 10-11 us against 26 one after
/// the other. The residences are locked in address order (the one place that holds two at once).
void make_current_all(std::span<const WantedCopy> wanted);
/// Records that buffer's copy was written: every other copy is stale. For overlapped borrowed
/// memory (Residence::overlapped), a write on another device is also copied back into the
/// host memory at once, and the overlapping allocations' copies on other devices go stale.
void note_written(Residence& r, const Buffer& buffer);
/// The buffer of the allocation on device, made on first use (not yet filled).
Buffer copy_on(Residence& r, const Device& device, DType dtype);
/// A valid copy of the allocation whose memory the host addresses directly, if there is one.
Buffer host_copy(Residence& r);
/// Borrowed memory (Residence::borrowed) seen afresh from another device: while the borrowed
/// copy is valid, every other copy made before the program's last wait (Copy::fresh_at) is
/// marked stale, so the next kernel reading one copies the owner's current data (once).
void refresh_from_borrowed(Residence& r);
/// Whether copy c of a borrowed allocation whose borrowed copy is valid holds the owner's data:
/// made current since the program's last wait (r locked).
bool fresh_since_last_wait(const Residence::Copy& c) noexcept;

}  // namespace weft::detail
