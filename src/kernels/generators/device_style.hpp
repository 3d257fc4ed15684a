// How generated kernels are shaped for a device: the host backend runs plain loops (no
// work-groups, one contiguous chunk per thread); OpenCL CPUs and GPUs run work-groups.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "weft/arg_spec.hpp"
#include "weft/device.hpp"

namespace weft::detail {

struct DeviceStyle {
  bool host = false;              // the host backend: exactly n work-items in elementwise kernels
  bool chunked = false;           // reductions and scans as chunked loops (CPUs: no barriers needed)
  // Single-pass algorithms publish values from one work-group to others, which needs a
  // device-scope fence: CUDA's __threadfence(), or membar.gl through NVIDIA's OpenCL (PTX).
  // OpenCL 1.2's mem_fence may order within a work-group only (NVIDIA's does: a published
  // aggregate can arrive after its flag), so on other OpenCL GPUs scans of 8-byte values go
  // in chunks and reductions in two launches.
  bool device_fences = false;
  // Inline PTX (DeviceCapabilities::inline_ptx: NVIDIA GPUs through CUDA, or through OpenCL
  // from compute capability 7.0 unless WEFT_OPENCL_PTX=0): kernels may use the helpers of WEFT_PTX.
  bool ptx = false;
  bool copies_async = false;      // global to local memory without registers (PTX, compute capability 8.0+)
  bool prefetches_bulk = false;   // a whole tile into L2 by one instruction (PTX, compute capability 9.0+)
  unsigned items = 1;             // elements per work-item in streaming kernels
  std::size_t group = 64;         // work-group size of generated kernels
  std::size_t groups_per_unit = 4;  // work-groups per compute unit in reductions and scans
  std::string options;            // -D WEFT_* for the generated source
};

/// The style of d, derived once per device (a DeviceLocal): a generated launch builds no
/// strings and takes no lock to find it.
const DeviceStyle& device_style(const Device& d);

/// The array an expression of the form `x[i]` reads, when x is a pointer argument of type
/// `dtype` of 4 or 8 bytes (kernels may then copy it asynchronously);
/// otherwise empty.
std::string direct_array(std::string_view expr, const std::vector<ArgSpec>& specs, DType dtype);
/// The array a scan's output statement stores each item to as it is (`y[i] = item`, y a
/// writable array of dtype), or "" when the statement does anything else.
std::string direct_store(std::string_view statement, const std::vector<ArgSpec>& specs, DType dtype);

}  // namespace weft::detail
