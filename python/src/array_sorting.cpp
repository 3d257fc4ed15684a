// Sorting and searching of weft.Array for Python: sort, argsort, sort_by_key, the in-place
// sort, unique, searchsorted, and where the nonzero elements are (flatnonzero, nonzero,
// argwhere, extract); python/weft/_sorting.py gives them NumPy's signatures.
#include <nanobind/stl/tuple.h>

#include <optional>
#include <string>

#include "arrays.hpp"
#include "weft/order_keys.hpp"
#include "weft/search.hpp"
#include "weft/selection.hpp"
#include "weft/sort.hpp"
#include "weft/unique.hpp"

namespace weftpy {

namespace {

// None: the flattened elements; else one axis (an int).
std::optional<int> axis_arg(nb::handle axis, const char* who) {
  if (axis.is_none()) return std::nullopt;
  if (!nb::isinstance<nb::int_>(axis)) throw nb::type_error((std::string(who) + ": axis must be an int or None").c_str());
  return nb::cast<int>(axis);
}

nb::object optional_array(const weft::Array& a) { return a ? nb::object(make_array(a)) : nb::none(); }

}  // namespace

void register_array_selection(nb::module_& m) {
  m.def("_flatnonzero", [](nb::handle x) { return make_array(weft::flatnonzero(need_array(x, "flatnonzero"))); });
  m.def("_nonzero", [](nb::handle x) {
    nb::list out;
    for (auto& a : weft::nonzero(need_array(x, "nonzero"))) out.append(make_array(std::move(a)));
    return ArrayTuple(nb::tuple(out));
  });
  m.def("_argwhere", [](nb::handle x) { return make_array(weft::argwhere(need_array(x, "argwhere"))); });
  m.def("_extract", [](nb::handle condition, nb::handle arr) {
    return make_array(weft::extract(need_array(condition, "extract"), need_array(arr, "extract")));
  });
}

void register_array_sorting(nb::module_& m) {
  m.def("_sort", [](nb::handle x, nb::handle axis, bool descending) {
    return make_array(weft::sort(need_array(x, "sort"), axis_arg(axis, "sort"), descending));
  }, nb::arg("x"), nb::arg("axis").none(), nb::arg("descending") = false);
  m.def("_argsort", [](nb::handle x, nb::handle axis, bool descending) {
    return make_array(weft::argsort(need_array(x, "argsort"), axis_arg(axis, "argsort"), descending));
  }, nb::arg("x"), nb::arg("axis").none(), nb::arg("descending") = false);
  m.def("_sort_by_key", [](nb::handle keys, nb::handle values, nb::handle axis, bool descending) {
    auto [k, v] = weft::sort_by_key(need_array(keys, "sort_by_key"), need_array(values, "sort_by_key"),
                                    axis_arg(axis, "sort_by_key"), descending);
    return nb::typed<nb::tuple, ArrayObject, ArrayObject>(nb::make_tuple(make_array(std::move(k)), make_array(std::move(v))));
  }, nb::arg("keys"), nb::arg("values"), nb::arg("axis").none(), nb::arg("descending") = false);
  m.def("_sort_in_place", [](nb::handle x, int axis, bool descending) {
    weft::sort_in_place(need_array(x, "sort"), axis, descending);
  }, nb::arg("x"), nb::arg("axis"), nb::arg("descending") = false);
  m.def("_unique", [](nb::handle x, bool index, bool inverse, bool counts, bool equal_nan) {
    const weft::Unique u = weft::unique(need_array(x, "unique"), index, inverse, counts, equal_nan);
    return nb::typed<nb::tuple, ArrayObject, MaybeArray, MaybeArray, MaybeArray>(nb::make_tuple(
        make_array(u.values), optional_array(u.index), optional_array(u.inverse), optional_array(u.counts)));
  }, nb::arg("x"), nb::arg("return_index"), nb::arg("return_inverse"), nb::arg("return_counts"),
        nb::arg("equal_nan") = true);
  m.def("_searchsorted", [](nb::handle a, nb::handle v, bool right, nb::handle sorter) {
    const weft::Array none;
    return make_array(weft::searchsorted(need_array(a, "searchsorted"), need_array(v, "searchsorted"), right,
                                         sorter.is_none() ? none : need_array(sorter, "searchsorted")));
  }, nb::arg("a"), nb::arg("v"), nb::arg("right") = false, nb::arg("sorter").none() = nb::none());
  m.def("_order_keys", [](nb::handle x, bool descending) {
    return make_array(weft::order_keys(need_array(x, "order_keys"), descending));
  }, nb::arg("x"), nb::arg("descending") = false);
  register_array_selection(m);
}

}  // namespace weftpy
