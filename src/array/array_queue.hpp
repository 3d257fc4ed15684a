// The queue arrays use on each device: one in-order queue per device, made on first use.
#pragma once

#include <string>

#include "weft/array.hpp"
#include "weft/queue.hpp"

namespace weft::detail {

Queue& array_queue(const Device& device);
/// Counts a kernel the array layer launched on device (weft::elementwise_launches reads it).
void count_launch(const Device& device);

/// The dialect's name for a dtype in buffers and arithmetic (bool is stored as uchar: OpenCL C
/// has no bool in memory).
std::string kernel_type(DType t);
/// Throws Unsupported for a dtype arrays cannot hold yet (float16), as kernel_type does, without
/// building its name.
void check_array_dtype(DType t);

}  // namespace weft::detail
