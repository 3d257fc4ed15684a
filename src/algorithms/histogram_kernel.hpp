// The one kernel behind histogram, bincount and histogram2d: each element of an expression
// (and, with weights, its weight, read in the same pass) finds its bin by a rule per axis, and
// the bins count or sum in privatized histograms merged once (src/kernels/cl/histogram.cl).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "weft/array.hpp"

namespace weft::detail {

/// How an element finds its bin along one axis.
enum class BinRule : std::uint8_t {
  uniform,   // equal bins: the index computed arithmetically, then settled against the edges
  edges,     // any increasing edges: binary search
  integers,  // the value itself is the bin (bincount)
};

/// One axis of a histogram: the value whose bin is found, and where the bins are.
struct BinAxis {
  explicit BinAxis(Expr v, BinRule r = BinRule::edges) : value(std::move(v)), rule(r) {}
  Expr value;
  BinRule rule = BinRule::edges;
  /// The edges (nbins + 1 of them, contiguous, in the type compared in: float32 or float64,
  /// or int64 for integer data against integer edges); empty for BinRule::integers.
  Array edges;
  std::int64_t nbins = 0;
  double lo = 0, scale = 0;  // uniform: bin ~ (x - lo) * scale
};

/// Counts the elements in each bin (int64), or sums their weights (int64 for integer and
/// bool weights, float64 for floating ones): one flat array of the product of the axes'
/// bins, the first axis slowest. Every axis's value (and the weights) must share one shape;
/// an element outside any axis's edges, or NaN, counts nowhere.
Array count_bins(const std::vector<BinAxis>& axes, const std::optional<Expr>& weights);

/// The kernel variant count_bins launches: automatic (private histograms per work-item on
/// CPUs, in local memory per work-group on other devices with barriers, global atomics where
/// the bins outgrow local memory), or one chosen by a test while a ScopedHistogramVariant
/// lives (local needs work-groups: the host backend keeps its own).
enum class HistogramVariant : std::uint8_t { automatic, private_, local, global };
class ScopedHistogramVariant {
 public:
  explicit ScopedHistogramVariant(HistogramVariant v);
  ~ScopedHistogramVariant();
  ScopedHistogramVariant(const ScopedHistogramVariant&) = delete;
  ScopedHistogramVariant& operator=(const ScopedHistogramVariant&) = delete;

 private:
  HistogramVariant before_;
};

/// The dialect source count_bins builds for these axes (the NVRTC test compiles each):
/// variant 0 private histograms (no work-groups), 1 local memory, 2 global atomics.
std::string histogram_source(const std::vector<BinAxis>& axes, const std::optional<Expr>& weights, int variant);

}  // namespace weft::detail
