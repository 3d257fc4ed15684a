// The radix sort behind weft::sort, argsort, sort_by_key and unique: a stable LSD sort over
// 8-bit digits of the keys' ordered bits (src/kernels/cl/sort_keys.cl), three barrier-free
// launches a digit (src/kernels/cl/radix_sort.cl), on raw buffers and any queue.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include "weft/buffer.hpp"
#include "weft/dtype.hpp"
#include "weft/event.hpp"
#include "weft/queue.hpp"

namespace weft::detail {

/// One sort: count keys of key_type from keys_in (read only, unless it is keys_out) into
/// keys_out, sorted within each row of row_len keys (count a multiple of it), with an
/// optional payload moved the same way.
struct RadixSortJob {
  DType key_type = DType::uint32;
  std::size_t count = 0;
  std::size_t row_len = 0;  // 0: one row of count keys
  bool descending = false;
  Buffer keys_in;
  Buffer keys_out;
  /// Bytes of one payload element: 0 (none), 1, 2, 4 or 8.
  std::size_t payload_size = 0;
  /// The payload is each key's original index (int64), made up by the first pass;
  /// payload_in is not read. Several rows need it (the row passes read it).
  bool payload_index = false;
  Buffer payload_in;
  Buffer payload_out;
};

/// Memory the sort needs besides the job's buffers (bytes), from the caller's allocator: the
/// array pool (ordered on the array queue) or plain buffers the caller keeps alive.
using SortScratch = std::function<Buffer(std::size_t bytes)>;

/// Enqueues the sort on queue after wait; returns the event of its last command. InvalidArgument
/// for a job it cannot run (a key type without an order, a payload size other than 0, 1, 2, 4
/// or 8, several rows without payload_index, buffers too small).
Event radix_sort(Queue& queue, const RadixSortJob& job, const SortScratch& scratch, std::span<const Event> wait = {});

/// sort_keys.cl for keys of type t, after the #defines it needs (WEFT_SORT_KEY, _KIND, _SIGN,
/// _INF), and weft_sort_bits(x): the key bits of x, a value of t as the array kernels type it.
/// InvalidArgument for a type without an order (none yet: every dtype has one).
std::string sort_key_source(DType t);
/// The functions of search.cl (unique's run starts, searchsorted's binary search) for arrays of
/// t: the preamble of their generated kernels.
std::string search_source(DType t);
/// The radix sort's program for keys of type key and a payload of payload_size bytes (0: none).
std::string sort_program_source(DType key, std::size_t payload_size);

}  // namespace weft::detail
