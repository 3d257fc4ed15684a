// Scans (prefix sums and their generalizations), as PyOpenCL's scan kernels:
//
//   weft::InclusiveScanKernel cumsum(weft::DType::float32, "a + b", "0");
//   cumsum(queue, n, in, out);                      // out[i] = in[0] + ... + in[i]
//
//   // Stream compaction: keep the positive elements of x, in order.
//   weft::GenericScanKernel compact(weft::DType::int32, "const float *x, float *kept, int *count",
//       "x[i] > 0 ? 1 : 0", "a + b", "0",
//       "if (prev_item != item) kept[item - 1] = x[i]; if (i == n - 1) *count = item;");
//
// The scan expression must be associative. An optional segment-start expression restarts
// the scan (from neutral) at every i where it holds: segmented scans.
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "weft/arg_spec.hpp"
#include "weft/detail/generated.hpp"
#include "weft/queue.hpp"

namespace weft {

class WEFT_API GenericScanKernel {
 public:
  GenericScanKernel(DType dtype, std::string_view arguments, std::string_view input_expr, std::string_view scan_expr,
                    std::string_view neutral, std::string_view output_statement,
                    std::string_view is_segment_start_expr = {}, std::string_view preamble = {},
                    std::string_view name = "scan", std::string_view options = {});

  DType dtype() const noexcept { return dtype_; }
  const std::vector<ArgSpec>& arguments() const noexcept { return specs_; }
  /// The generated source of the GPU variant (single pass) when the scan has one, else the
  /// chunked variant.
  const std::string& source() const noexcept { return (lookback_ ? lookback_ : chunked_)->source(); }

  /// Scans over i in [0, n); returns the event of the last pass.
  template <class... A>
  Event operator()(Queue& queue, std::size_t n, const A&... args) {
    Kernels& k = kernels_for(queue.device());
    KernelArgs call(k.partial);
    detail::bind_user_args(call, specs_, who_, args...);
    return launch(queue, k, call, n);
  }
  /// The same with arguments known only at run time (the Python binding's calls).
  Event run(Queue& queue, std::size_t n, std::span<const detail::RuntimeArg> args) {
    Kernels& k = kernels_for(queue.device());
    KernelArgs call(k.partial);
    detail::bind_runtime_args(call, specs_, who_, args);
    return launch(queue, k, call, n);
  }

 private:
  struct Scratch {
    Buffer values;     // chunk totals/carries, or tile aggregates
    Buffer flags;      // chunk segment flags (int32 each), or tile status words (64 bits each)
    Buffer prefixes;   // tile inclusive prefixes (single pass)
    Buffer counter;    // the next tile (single pass)
    std::uint32_t epoch = 0;          // single pass: the last call's number, in its status words
    std::uint32_t tiles_started = 0;  // single pass: the counter's value (mod 2^32) after the last call
  };
  struct Kernels {
    const void* device = nullptr;
    bool single_pass = false;
    std::size_t items = 0;    // single pass: elements per work-item of a tile
    std::size_t group = 0;    // single pass: work-items per tile
    std::size_t pad = 1;      // single pass: words of local-memory padding per 32 items
    std::size_t helpers = 0;  // single pass: work-items beyond `group` (a warp that only looks back)
    Kernel partial;     // chunked: totals; single pass: the scan itself
    Kernel carry;
    Kernel final_pass;
    std::mutex mutex;  // guards scratch (held while a call finds its scratch and enqueues)
    std::vector<std::pair<const void*, Scratch>> scratch;  // per queue: stream order keeps it safe
  };
  /// The kernels of device, built on first use (several threads may ask at once).
  Kernels& kernels_for(const Device& device);
  /// Launches with call (the user's arguments bound to the first kernel's first parameters).
  Event launch(Queue& queue, Kernels& k, KernelArgs& call, std::size_t n);

  DType dtype_;
  std::vector<ArgSpec> specs_;
  std::string who_;
  std::string options_;
  std::shared_ptr<detail::GeneratedSource> chunked_;
  std::shared_ptr<detail::GeneratedSource> lookback_;  // null for segmented scans
  bool direct_ = false;  // the input is `x[i]` of the scan's type: tiles copy straight to local memory
  std::mutex mutex_;  // guards kernels_
  std::vector<std::unique_ptr<Kernels>> kernels_;
};

/// out[i] = in[0] op in[1] op ... op in[i].
class WEFT_API InclusiveScanKernel {
 public:
  InclusiveScanKernel(DType dtype, std::string_view scan_expr, std::string_view neutral,
                      std::string_view preamble = {});
  Event operator()(Queue& queue, std::size_t n, const Buffer& in, const Buffer& out) {
    return scan_(queue, n, in, out);
  }

 private:
  GenericScanKernel scan_;
};

/// out[i] = neutral op in[0] op ... op in[i-1] (out[0] = neutral).
class WEFT_API ExclusiveScanKernel {
 public:
  ExclusiveScanKernel(DType dtype, std::string_view scan_expr, std::string_view neutral,
                      std::string_view preamble = {});
  Event operator()(Queue& queue, std::size_t n, const Buffer& in, const Buffer& out) {
    return scan_(queue, n, in, out);
  }

 private:
  GenericScanKernel scan_;
};

}  // namespace weft
