// The queue arrays use on each device: one in-order queue per device, made on first use.
#pragma once

#include <string>
#include <vector>

#include "weft/array.hpp"
#include "weft/queue.hpp"

namespace weft::detail {

Queue& array_queue(const Device& device);
/// Counts a kernel the array layer launched on device (weft::elementwise_launches reads it).
void count_launch(const Device& device);

/// The dialect's name for a dtype in buffers and arithmetic (bool is stored as uchar: OpenCL C
/// has no bool in memory).
std::string kernel_type(DType t);

/// The sources of the kernels an expression becomes (NVRTC compiles them in the tests).
std::string eval_source(const Array& out, const Expr& expr);
std::string sum_source(const Expr& expr);
/// piece > 0: the first stage of a split reduction, pieces of piece consecutive elements, or
/// with interleaved, piece interleaved parts (see plan_axes in expr.cpp).
std::string axis_reduce_source(const Expr& expr, const std::string& what, const std::vector<int>& axes,
                               std::int64_t piece = 0, bool interleaved = false);
/// The parallel reduction over every element (what: sum, prod, min, max, any, all), the
/// first-index pass of argmin/argmax, and the cumsum/cumprod scan (lines: segmented).
std::string full_reduce_source(const Expr& expr, const std::string& what);
std::string first_index_source(const Expr& expr);
std::string scan_source(const Expr& expr, const std::string& what, bool lines);

}  // namespace weft::detail
