// Histograms with NumPy's semantics: histogram, bincount and histogram2d of arrays or
// expressions, on any device, the expression read once in the counting kernel.
//
//   weft::Histogram h = weft::histogram(a * b, 256, {.range = {{0.0, 1.0}}});
//   std::vector<std::int64_t> counts = h.counts.to_host<std::int64_t>();   // 256 bins
//   weft::Array c = weft::bincount(labels);          // counts of 0, 1, ... max(labels)
//
// Bins are [e[k], e[k+1]) except the last, which holds its right edge; values outside the
// edges and NaN count nowhere. Equal bins find the bin arithmetically, settled against the
// edges (NumPy's edges exactly: np.linspace in the same type); explicit edges search. Each
// work-group (each thread on the host backend) counts in a histogram of its own, in local
// memory where the device has it, merged once; counts are exact int64. docs/ALGORITHMS.md
// ("Histograms") tells the variants and their speed.
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <optional>
#include <utility>

#include "weft/array.hpp"

namespace weft {

/// The bins along one axis: a number of equal bins over the range, or the edges themselves
/// (one dimension, increasing; nbins + 1 of them).
struct WEFT_API Bins {
  Bins(std::int64_t n = 10) : count(n) {}  // NOLINT: 256 reads as 256 bins
  Bins(Array e) : edges(std::move(e)) {}            // NOLINT: as NumPy's bins=array
  std::int64_t count = 10;
  Array edges;  // set: explicit edges, count unused
};

struct HistogramOptions {
  /// The range of equal bins (lower, upper); none: the data's min and max (finite, or
  /// InvalidArgument). Ignored with explicit edges, as NumPy's.
  std::optional<std::pair<double, double>> range = std::nullopt;
  /// One weight per element, of the data's shape: bins sum them (in the weights' dtype, as
  /// NumPy's) instead of counting.
  std::optional<Expr> weights = std::nullopt;
  /// The probability density (float64): counts / bin width / total.
  bool density = false;
};

struct Histogram {
  Array counts;  // int64, the weights' dtype, or float64 with density
  Array edges;   // nbins + 1: NumPy's dtype (float32 data keeps float32 edges)
};

/// numpy.histogram of every element of a (flattened).
WEFT_API Histogram histogram(const Expr& a, const Bins& bins = 10, const HistogramOptions& options = {});

/// numpy.bincount: how often each value 0, 1, ... max(x) occurs in x (one dimension, integers
/// or bools, none negative), or the sum of their weights (float64); at least minlength bins.
WEFT_API Array bincount(const Expr& x, const std::optional<Expr>& weights = std::nullopt, std::int64_t minlength = 0);

struct Histogram2dOptions {
  std::optional<std::pair<double, double>> x_range = std::nullopt, y_range = std::nullopt;
  std::optional<Expr> weights = std::nullopt;
  bool density = false;
};

struct Histogram2d {
  Array counts;  // float64, x_bins by y_bins (x along the first axis)
  Array x_edges;
  Array y_edges;
};

/// numpy.histogram2d of the points (x[i], y[i]) (one dimension each, the same length).
WEFT_API Histogram2d histogram2d(const Expr& x, const Expr& y, const Bins& x_bins = 10, const Bins& y_bins = 10,
                                 const Histogram2dOptions& options = {});

}  // namespace weft
