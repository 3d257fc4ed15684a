// Memory regions (issue 27, docs/PLACEMENT.md "Memory regions"): borrowed host memory
// (Array::borrow_host) is registered by its address range, so that
// - a borrow whose range lies within a live borrowed allocation of the same dtype, at a whole
//   element's offset, is a view of that allocation: one residence record, so a copy on a
//   device made through one is the other's, and a write through either invalidates the
//   other copies as for any two views;
// - two borrowed allocations whose ranges overlap otherwise (partly, or in another dtype) are
//   linked: a write through one makes the other's copies on other devices stale, and a write
//   on another device through either is copied back into the host memory at once (so the
//   memory both share is always current); ranges that do not overlap stay independent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "weft/dtype.hpp"

namespace weft::detail {

struct Residence;

struct Region {
  std::shared_ptr<Residence> residence;
  std::size_t offset_bytes = 0;  // of the asked range within it
};

/// The borrowed allocation for [begin, begin + bytes) of dtype, under one lock (a borrow is on
/// the path of every `weft.asarray(x, device="auto")`, so it takes the registry once): the live
/// borrowed allocation of dtype whose range holds it at a whole element's offset (the largest
/// when several do), else a new one, made by make(), registered and linked with the live ones
/// it overlaps (offset 0). Two threads borrowing the same memory get one residence record.
/// (make is a plain function and its argument: no std::function to build on this path.)
Region borrow_region(std::uintptr_t begin, std::size_t bytes, DType dtype,
                     std::shared_ptr<Residence> (*make)(void* context), void* context);
/// The live borrowed allocations whose ranges overlap r's (r excluded).
std::vector<std::shared_ptr<Residence>> overlapping_regions(const Residence& r);

}  // namespace weft::detail
