// The host device's sort: the radix sort's job (algorithms/radix_sort.hpp) run natively on
// the buffers' memory, as one command of the queue, spread over the device's thread pool.
// Same order as the dialect kernels (src/kernels/cl/sort_keys.cl): keys compared by their
// ordered bits ^ flip, stable, NaNs as the largest key, -0.0 equal to +0.0.
//
// One row: a parallel LSD radix sort over 11-bit digits (8-bit for 8- and 16-bit keys), each
// thread a contiguous part; digits on which every key agrees are skipped (one histogram pass
// over the input finds them). Several rows: rows in parallel, each by a single-threaded
// radix sort, or a stable merge sort / insertion sort when short.
#pragma once

#include <optional>
#include <span>

#include "algorithms/radix_sort.hpp"
#include "weft/event.hpp"
#include "weft/queue.hpp"

namespace weft::detail {

/// Enqueues job natively when queue is a host queue (its checks already made by radix_sort);
/// std::nullopt for any other queue. Scratch comes from scratch, as radix_sort's does.
std::optional<Event> host_radix_sort(Queue& queue, const RadixSortJob& job, const SortScratch& scratch,
                                     std::span<const Event> wait);

}  // namespace weft::detail
