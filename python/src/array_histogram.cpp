// Histograms of weft.Array for Python: weft.histogram, weft.bincount and weft.histogram2d
// (python/weft/_histogram.py gives them NumPy's signatures and turns array-likes into arrays).
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>

#include <optional>
#include <utility>

#include "arrays.hpp"
#include "weft/histogram.hpp"

namespace weftpy {

namespace {

using Range = std::optional<std::pair<double, double>>;

// bins: an int (equal bins) or a weft.Array of edges.
weft::Bins bins_arg(nb::handle h) {
  if (nb::isinstance<PyArray>(h)) return weft::Bins(as_py(h).array());
  return weft::Bins(nb::cast<std::int64_t>(h));
}

std::optional<weft::Expr> weights_arg(nb::handle h, const char* who) {
  if (h.is_none()) return std::nullopt;
  return need_operand(h, who);
}

}  // namespace

void register_array_histogram(nb::module_& m) {
  m.def("_histogram", [](nb::handle a, nb::handle bins, Range range, nb::handle weights, bool density) {
    weft::HistogramOptions o;
    o.range = range;
    o.weights = weights_arg(weights, "histogram");
    o.density = density;
    weft::Histogram h = weft::histogram(need_operand(a, "histogram"), bins_arg(bins), o);
    return nb::typed<nb::tuple, ArrayObject, ArrayObject>(
        nb::make_tuple(make_array(std::move(h.counts)), make_array(std::move(h.edges))));
  }, nb::arg("a"), nb::arg("bins"), nb::arg("range").none(), nb::arg("weights").none(), nb::arg("density"));
  m.def("_bincount", [](nb::handle x, nb::handle weights, std::int64_t minlength) {
    return make_array(weft::bincount(need_operand(x, "bincount"), weights_arg(weights, "bincount"), minlength));
  }, nb::arg("x"), nb::arg("weights").none(), nb::arg("minlength"));
  m.def("_histogram2d", [](nb::handle x, nb::handle y, nb::handle xbins, nb::handle ybins, Range xrange,
                           Range yrange, nb::handle weights, bool density) {
    weft::Histogram2dOptions o;
    o.x_range = xrange;
    o.y_range = yrange;
    o.weights = weights_arg(weights, "histogram2d");
    o.density = density;
    weft::Histogram2d h = weft::histogram2d(need_operand(x, "histogram2d"), need_operand(y, "histogram2d"),
                                            bins_arg(xbins), bins_arg(ybins), o);
    return nb::typed<nb::tuple, ArrayObject, ArrayObject, ArrayObject>(nb::make_tuple(
        make_array(std::move(h.counts)), make_array(std::move(h.x_edges)), make_array(std::move(h.y_edges))));
  }, nb::arg("x"), nb::arg("y"), nb::arg("xbins"), nb::arg("ybins"), nb::arg("xrange").none(),
        nb::arg("yrange").none(), nb::arg("weights").none(), nb::arg("density"));
}

}  // namespace weftpy
