// The host device's native sort (host_sort.hpp says what it does and why).
#include "backends/host/host_sort.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/host/host_device.hpp"
#include "backends/host/host_radix.hpp"
#include "backends/host/host_vqsort.hpp"
#include "backends/host/host_queue.hpp"
#include "runtime/ordered_command.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

using host_sort::NoPayload;
using host_sort::Range;
using host_sort::Sorter;
using host_sort::each_part;

// The job's memory, untyped.
struct Memory {
  const void* keys_in;
  const void* payload_in;
  void* keys_out;
  void* payload_out;
  void* keys_tmp;
  void* payload_tmp;
  std::size_t count;
  std::size_t row_len;
  bool iota;
  bool descending;
};

// Sorts of at most this many keys (one thread's few microseconds for one row; rows are still
// spread over the pool, from the caller's thread) may run on the caller's thread.
constexpr std::size_t inline_sort_keys = 4096;
// Keys alone sorted by vqsort (host_vqsort.hpp) may run on the caller's thread up to this
// many: 10^4 float32 keys took 46 us by vqsort on the 2-core VM, 119 us handed to a worker.
constexpr std::size_t inline_vectorized_keys = 16384;
// Ranges of one row below this many keys are not split over threads.
constexpr std::size_t parallel_min = std::size_t{1} << 16;

template <class K, int Kind, class P>
void run_typed(const Memory& m, ThreadPool& pool) {
  using S = Sorter<K, Kind, P>;
  const std::size_t rows = m.count / m.row_len;
  auto range = [&](std::size_t row) {
    const std::size_t at = row * m.row_len;
    Range<K, P> r;
    r.in = static_cast<const K*>(m.keys_in) + at;
    r.out = static_cast<K*>(m.keys_out) + at;
    r.tmp = static_cast<K*>(m.keys_tmp) + at;
    if constexpr (S::has_payload) {
      r.pin = m.iota ? nullptr : static_cast<const P*>(m.payload_in) + at;
      r.pout = static_cast<P*>(m.payload_out) + at;
      r.ptmp = static_cast<P*>(m.payload_tmp) + at;
    }
    r.n = m.row_len;
    r.base = at;
    r.iota = m.iota;
    r.flip = m.descending ? static_cast<K>(~K{0}) : K{0};
    return r;
  };
  if (rows == 1) {
    const std::size_t parts = m.count >= parallel_min ? pool.size() : 1;
    S::sort(range(0), parts, &pool);
    return;
  }
  const std::size_t chunks = std::min<std::size_t>(rows, std::size_t{4} * pool.size());
  std::mutex failed_mutex;
  std::exception_ptr failed;
  auto rows_of = [&](std::size_t c) {
    try {
      for (std::size_t row = rows * c / chunks, end = rows * (c + 1) / chunks; row < end; ++row) {
        S::sort(range(row), 1, nullptr);
      }
    } catch (...) {
      const std::lock_guard lock(failed_mutex);
      if (!failed) failed = std::current_exception();
    }
  };
  each_part(&pool, chunks, rows_of);
  if (failed) std::rethrow_exception(failed);
}

template <class K, int Kind>
void with_payload(const Memory& m, std::size_t payload_size, ThreadPool& pool) {
  switch (payload_size) {
    case 0: return run_typed<K, Kind, NoPayload>(m, pool);
    case 1: return run_typed<K, Kind, std::uint8_t>(m, pool);
    case 2: return run_typed<K, Kind, std::uint16_t>(m, pool);
    case 4: return run_typed<K, Kind, std::uint32_t>(m, pool);
    case 8: return run_typed<K, Kind, std::uint64_t>(m, pool);
    default: throw InvalidArgument("sort: values of " + std::to_string(payload_size) + " bytes cannot move");
  }
}

template <int Kind>
void with_key_size(const Memory& m, std::size_t key_size, std::size_t payload_size, ThreadPool& pool) {
  switch (key_size) {
    case 1:
      if constexpr (Kind != 2) return with_payload<std::uint8_t, Kind>(m, payload_size, pool);
      break;
    case 2: return with_payload<std::uint16_t, Kind>(m, payload_size, pool);
    case 4: return with_payload<std::uint32_t, Kind>(m, payload_size, pool);
    case 8: return with_payload<std::uint64_t, Kind>(m, payload_size, pool);
    default: break;
  }
  throw InvalidArgument("sort: keys of " + std::to_string(key_size) + " bytes have no order");
}

void run_sort(const Memory& m, DType key_type, std::size_t payload_size, ThreadPool& pool) {
  const std::size_t key_size = size_of(key_type);
  if (is_floating(key_type)) {
    with_key_size<2>(m, key_size, payload_size, pool);
  } else if (is_signed_integer(key_type)) {
    with_key_size<1>(m, key_size, payload_size, pool);
  } else {
    with_key_size<0>(m, key_size, payload_size, pool);
  }
}

}  // namespace

std::optional<Event> host_radix_sort(Queue& queue, const RadixSortJob& job, const SortScratch& scratch,
                                     std::span<const Event> wait) {
  auto* host_queue = dynamic_cast<HostQueue*>(queue.impl().get());
  if (!host_queue) return std::nullopt;
  const std::shared_ptr<DeviceImpl> device = host_queue->device();
  auto* host_device = dynamic_cast<HostDevice*>(device.get());
  if (!host_device) return std::nullopt;
  const std::size_t n = job.count;
  const std::size_t row_len = job.row_len ? job.row_len : n;
  const std::size_t payload_size = job.payload_index ? 8 : job.payload_size;
  // The command holds every buffer it touches, so they live until it has run.
  std::vector<BufferPtr> held{job.keys_in.impl(), job.keys_out.impl(), scratch(n * size_of(job.key_type)).impl()};
  if (payload_size) {
    held.push_back(job.payload_index ? BufferPtr() : job.payload_in.impl());
    held.push_back(job.payload_out.impl());
    held.push_back(scratch(n * payload_size).impl());
  }
  auto work = [held = std::move(held), key_type = job.key_type, n, row_len, payload_size,
               iota = job.payload_index, descending = job.descending, device] {
    Memory m{};
    m.keys_in = held[0]->host_ptr();
    m.keys_out = held[1]->host_ptr();
    m.keys_tmp = held[2]->host_ptr();
    if (payload_size) {
      m.payload_in = held[3] ? held[3]->host_ptr() : nullptr;
      m.payload_out = held[4]->host_ptr();
      m.payload_tmp = held[5]->host_ptr();
    }
    m.count = n;
    m.row_len = row_len;
    m.iota = iota;
    m.descending = descending;
    run_sort(m, key_type, payload_size, static_cast<HostDevice&>(*device).pool());
  };
  // A short sort runs on the caller's thread when the queue is idle: on the 2-core VM the
  // worker's wake-up and the caller's wait cost 20 us around a 100-key sort of 2 us.
  const bool short_sort =
      n <= inline_sort_keys || (payload_size == 0 && n <= inline_vectorized_keys && host_vqsort() != nullptr);
  return ordered(queue.impl(), wait, [&](std::span<const EventPtr> w) {
    return host_queue->enqueue_work(std::move(work), w, short_sort);
  });
}

}  // namespace weft::detail
