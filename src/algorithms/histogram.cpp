// histogram, bincount and histogram2d: NumPy's checks, ranges, edges and result types around
// count_bins (histogram_kernel.cpp), which reads the data once.
#include "weft/histogram.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/histogram_kernel.hpp"
#include "algorithms/reduction_kernels.hpp"
#include "array/expr_node.hpp"
#include "weft/error.hpp"

namespace weft {

namespace {

using detail::BinAxis;
using detail::BinRule;

Device device_of(const Expr& e, const char* who) {
  const Device d = detail::device_of(*e.node());
  if (!d) throw InvalidArgument(std::string(who) + ": the data holds no array");
  return d;
}

// A reduction over every element, as a double (min or max).
double extreme(const Expr& e, const char* what) {
  const Array r = detail::reduce_every_element(e, what, false);
  return eval(astype(Expr(r), DType::float64)).to_host<double>()[0];
}

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = std::to_string(v);
  return s;
}

// NumPy's _get_outer_edges: the range given (checked), or the data's min and max, widened by
// a half on each side when they are equal; in float32 arithmetic when NumPy's would be
// (float32 data without a range: its min and max are float32 scalars).
struct Outer {
  double first = 0, last = 1;
  bool single = false;  // computed in float32
};
Outer outer_edges(const Expr& data, const std::optional<std::pair<double, double>>& range, const char* who) {
  Outer o;
  if (range) {
    o.first = range->first;
    o.last = range->second;
    if (o.first > o.last) throw InvalidArgument(std::string(who) + ": max must be larger than min in range parameter.");
    if (!std::isfinite(o.first) || !std::isfinite(o.last)) {
      throw InvalidArgument(std::string(who) + ": supplied range of [" + number(o.first) + ", " + number(o.last) +
                            "] is not finite");
    }
  } else if (data.shape().size() > 0) {
    o.first = extreme(data, "min");
    o.last = extreme(data, "max");
    if (!std::isfinite(o.first) || !std::isfinite(o.last)) {
      throw InvalidArgument(std::string(who) + ": autodetected range of [" + number(o.first) + ", " +
                            number(o.last) + "] is not finite");
    }
    o.single = data.dtype() == DType::float32 || data.dtype() == DType::float16;
  }
  if (o.first == o.last) {
    o.first -= 0.5;
    o.last += 0.5;
    if (o.single) {
      o.first = static_cast<float>(o.first);
      o.last = static_cast<float>(o.last);
    }
  }
  return o;
}

// np.linspace(first, last, num) computed in T as NumPy's (i * step + start, the last exactly
// stop), without a fused multiply-add NumPy's would not do.
template <class T>
std::vector<double> linspace_in(double first, double last, std::int64_t num) {
  const T start = static_cast<T>(first), stop = static_cast<T>(last);
  const T step = static_cast<T>(stop - start) / static_cast<T>(num - 1);
  std::vector<double> v(static_cast<std::size_t>(num));
  for (std::int64_t i = 0; i < num; ++i) {
    volatile T product = static_cast<T>(i) * step;  // volatile: no contraction into an fma
    v[static_cast<std::size_t>(i)] = static_cast<T>(product + start);
  }
  v.back() = stop;
  return v;
}

// Equal bins over o as edges of dtype t, and the axis that finds them (compared in t, float16
// in float32, which holds it exactly).
BinAxis uniform_axis(const Expr& value, std::int64_t nbins, const Outer& o, DType t, const Device& dev,
                     Array& edges, const char* who) {
  const std::vector<double> e = o.single ? linspace_in<float>(o.first, o.last, nbins + 1)
                                         : linspace_in<double>(o.first, o.last, nbins + 1);
  // NumPy refuses edges that are not strictly increasing in their own dtype.
  for (std::size_t k = 0; k + 1 < e.size(); ++k) {
    const bool increasing = t == DType::float64 ? e[k] < e[k + 1]
                                                : static_cast<float>(e[k]) < static_cast<float>(e[k + 1]);
    if (!increasing) {
      throw InvalidArgument(std::string(who) + ": Too many bins for data range. Cannot create " +
                            std::to_string(nbins) + " finite-sized bins.");
    }
  }
  const Array e64 = Array::from_host<double>(e, Shape({nbins + 1}), dev);
  edges = t == DType::float64 ? e64 : eval(astype(Expr(e64), t));
  BinAxis a(value, BinRule::uniform);
  a.nbins = nbins;
  a.lo = e.front();
  a.scale = static_cast<double>(nbins) / (e.back() - e.front());
  const DType c = t == DType::float16 ? DType::float32 : t;
  a.edges = edges.dtype() == c ? edges : eval(astype(Expr(edges), c));
  return a;
}

// Explicit edges, checked as NumPy checks them, compared with the data in their common type.
BinAxis edges_axis(const Expr& value, const Array& edges, DType data, const char* what, const char* who) {
  if (edges.ndim() != 1) throw InvalidArgument(std::string(who) + ": `" + what + "` must be 1d, when an array");
  const std::vector<double> e = eval(astype(Expr(edges), DType::float64)).to_host<double>();
  for (std::size_t k = 0; k + 1 < e.size(); ++k) {
    if (e[k] > e[k + 1]) {
      throw InvalidArgument(std::string(who) + ": `" + what + "` must " +
                            (std::string(what) == "bins" ? "increase monotonically" : "be monotonically increasing") +
                            ", when an array");
    }
  }
  DType c = result_type(data, edges.dtype());
  if (c == DType::float16) c = DType::float32;
  BinAxis a(value, BinRule::edges);
  a.nbins = std::max<std::int64_t>(edges.size() - 1, 0);
  a.edges = edges.dtype() == c ? edges : eval(astype(Expr(edges), c));
  return a;
}

// Bools count as uint8, as NumPy converts them.
Expr as_numbers(const Expr& e) { return e.dtype() == DType::bool_ ? astype(e, DType::uint8) : e; }

// NumPy's density: counts / the width of each bin (the difference in the edges' dtype, as a
// double) / their total.
Array widths(const Array& edges) {
  const std::int64_t n = edges.size();
  return eval(astype(Expr(edges.slice(0, 1, n)) - Expr(edges.slice(0, 0, n - 1)), DType::float64));
}

}  // namespace

Histogram histogram(const Expr& input, const Bins& bins, const HistogramOptions& options) {
  const char* who = "histogram";
  if (is_complex(input.dtype())) throw DTypeError("histogram: complex input has no order; bin its real parts or absolute values");
  const Expr a = as_numbers(input);
  const Device dev = device_of(a, who);
  std::optional<Expr> weights;
  if (options.weights) {
    if (options.weights->shape() != a.shape()) {
      throw InvalidArgument("histogram: weights should have the same shape as a.");
    }
    weights = options.weights->dtype() == DType::bool_ ? astype(*options.weights, DType::int64) : *options.weights;
  }
  Histogram h;
  const BinAxis axis = [&] {
    if (bins.edges) {
      if (!(bins.edges.device() == dev)) throw InvalidArgument("histogram: the bins are on another device than the data");
      h.edges = bins.edges;
      return edges_axis(a, bins.edges, a.dtype(), "bins", who);
    }
    if (bins.count < 1) throw InvalidArgument("histogram: `bins` must be positive, when an integer");
    const Outer o = outer_edges(a, options.range, who);
    // np.result_type(first, last, a), floating: float32 and float16 data keep their type.
    const DType t = a.dtype() == DType::float32 || a.dtype() == DType::float16 ? a.dtype() : DType::float64;
    return uniform_axis(a, bins.count, o, t, dev, h.edges, who);
  }();
  Array counts = detail::count_bins({axis}, weights);
  if (options.weights && counts.dtype() != options.weights->dtype()) {
    counts = eval(astype(Expr(counts), options.weights->dtype()));
  }
  if (options.density) {
    const double total = sum(Expr(counts)).get();
    counts = eval(astype(Expr(counts), DType::float64) / Expr(widths(h.edges)) / total);
  }
  h.counts = std::move(counts);
  return h;
}

Array bincount(const Expr& input, const std::optional<Expr>& weights, std::int64_t minlength) {
  const char* who = "bincount";
  if (input.shape().ndim() == 0) throw InvalidArgument("bincount: object of too small depth for desired array");
  if (input.shape().ndim() > 1) throw InvalidArgument("bincount: object too deep for desired array");
  if (is_floating(input.dtype())) {
    throw InvalidArgument("bincount: Cannot cast array data from dtype('" + std::string(name(input.dtype())) +
                          "') to dtype('int64') according to the rule 'safe'");
  }
  if (minlength < 0) throw InvalidArgument("bincount: 'minlength' must not be negative");
  if (weights && weights->shape() != input.shape()) {
    throw InvalidArgument("bincount: The weights and list don't have the same length.");
  }
  const Expr x = as_numbers(input);
  const Device dev = device_of(x, who);
  std::optional<Expr> w;
  if (weights) w = astype(*weights, DType::float64);  // NumPy sums weights as doubles
  // NumPy's empty input gives int64 zeros, weights or not.
  if (x.shape().size() == 0) return Array::zeros(Shape({minlength}), DType::int64, dev);
  const auto lowest = eval(astype(Expr(detail::reduce_every_element(x, "min", false)), DType::int64)).to_host<std::int64_t>()[0];
  if (lowest < 0) throw InvalidArgument("bincount: 'list' argument must have no negative elements");
  const auto highest = eval(astype(Expr(detail::reduce_every_element(x, "max", false)), DType::int64)).to_host<std::int64_t>()[0];
  BinAxis axis(x, BinRule::integers);
  axis.nbins = std::max(highest + 1, minlength);
  return detail::count_bins({axis}, w);
}

Histogram2d histogram2d(const Expr& x_input, const Expr& y_input, const Bins& x_bins, const Bins& y_bins,
                        const Histogram2dOptions& options) {
  const char* who = "histogram2d";
  if (x_input.shape().ndim() != 1 || y_input.shape().ndim() != 1 || x_input.shape() != y_input.shape()) {
    throw InvalidArgument("histogram2d: x and y must be one-dimensional and of the same length, got shapes " +
                          to_string(x_input.shape()) + " and " + to_string(y_input.shape()));
  }
  // histogramdd stacks the coordinates into one array: one dtype for both.
  DType s = result_type(x_input.dtype(), y_input.dtype());
  if (s == DType::bool_) s = DType::uint8;
  const Expr x = x_input.dtype() == s ? x_input : astype(x_input, s);
  const Expr y = y_input.dtype() == s ? y_input : astype(y_input, s);
  const Device dev = device_of(x, who);
  std::optional<Expr> w;
  if (options.weights) {
    if (options.weights->shape() != x.shape()) throw InvalidArgument("histogram2d: weights must have the length of x");
    w = astype(*options.weights, DType::float64);
  }
  Histogram2d h;
  std::vector<BinAxis> axes;
  const Bins* bins[2] = {&x_bins, &y_bins};
  const Expr* values[2] = {&x, &y};
  const std::optional<std::pair<double, double>>* ranges[2] = {&options.x_range, &options.y_range};
  Array* edges[2] = {&h.x_edges, &h.y_edges};
  for (int k = 0; k < 2; ++k) {
    const std::string what = "bins[" + std::to_string(k) + "]";
    if (bins[k]->edges) {
      axes.push_back(edges_axis(*values[k], bins[k]->edges, s, what.c_str(), who));
      *edges[k] = bins[k]->edges;
      continue;
    }
    if (bins[k]->count < 1) throw InvalidArgument("histogram2d: `" + what + "` must be positive, when an integer");
    const Outer o = outer_edges(*values[k], *ranges[k], who);
    // np.linspace of the range: float32 from a float32 sample's own min and max, else float64.
    const DType t = o.single ? s : DType::float64;
    BinAxis a = uniform_axis(*values[k], bins[k]->count, o, t, dev, *edges[k], who);
    const DType c = result_type(s, a.edges.dtype());
    if (a.edges.dtype() != c) a.edges = eval(astype(Expr(a.edges), c));
    axes.push_back(std::move(a));
  }
  Array counts = detail::count_bins(axes, w);
  counts = eval(astype(Expr(counts), DType::float64)).reshape({axes[0].nbins, axes[1].nbins});
  if (options.density) {
    const double total = sum(Expr(counts)).get();
    const Array dx = widths(h.x_edges).reshape({axes[0].nbins, 1});
    const Array dy = widths(h.y_edges).reshape({1, axes[1].nbins});
    counts = eval(Expr(counts) / Expr(dx) / Expr(dy) / total);
  }
  h.counts = std::move(counts);
  return h;
}

}  // namespace weft
