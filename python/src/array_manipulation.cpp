// The Array API's creation, manipulation, indexing and statistics functions of
// weft/manipulation.hpp and weft/statistics.hpp for Python; python/weft/_manipulation.py gives
// them the standard's (and NumPy's) signatures and argument checks.
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "weft/manipulation.hpp"
#include "weft/statistics.hpp"

namespace weftpy {

namespace {

const weft::Array& array_of(nb::handle h, const char* who) {
  if (!nb::isinstance<PyArray>(h)) throw nb::type_error((std::string(who) + ": expected a weft.Array").c_str());
  return as_py(h).array();
}

std::vector<weft::Array> arrays_of(nb::handle seq, const char* who) {
  std::vector<weft::Array> out;
  for (nb::handle h : seq) out.push_back(array_of(h, who));
  return out;
}

ArrayList to_list(std::vector<weft::Array> arrays) {
  ArrayList out;
  for (auto& a : arrays) out.append(make_array(std::move(a)));
  return out;
}

// f() without the GIL (it may wait for the device: a count, a check of indices), as a weft.Array.
template <class F>
ArrayObject unlocked(F&& f) {
  weft::Array r;
  {
    nb::gil_scoped_release released;
    r = f();
  }
  return make_array(std::move(r));
}

}  // namespace

void register_array_manipulation(nb::module_& m) {
  m.def("_eye", [](std::int64_t rows, std::optional<std::int64_t> cols, std::int64_t k, const std::string& dtype,
                   nb::handle device) {
    return make_array(weft::eye(rows, cols, k, dtype_arg(dtype), device_arg(device)));
  }, nb::arg("n_rows"), nb::arg("n_cols").none(), nb::arg("k"), nb::arg("dtype"), nb::arg("device").none());
  m.def("_tril", [](nb::handle x, std::int64_t k) { return make_array(weft::tril(array_of(x, "tril"), k)); });
  m.def("_triu", [](nb::handle x, std::int64_t k) { return make_array(weft::triu(array_of(x, "triu"), k)); });
  m.def("_meshgrid", [](nb::handle arrays, bool ij) {
    return to_list(weft::meshgrid(arrays_of(arrays, "meshgrid"), ij ? weft::MeshIndexing::ij : weft::MeshIndexing::xy));
  });
  m.def("_broadcast_arrays", [](nb::handle arrays) {
    return to_list(weft::broadcast_arrays(arrays_of(arrays, "broadcast_arrays")));
  });
  m.def("_concat", [](nb::handle arrays, std::optional<int> axis) {
    const std::vector<weft::Array> parts = arrays_of(arrays, "concat");
    return unlocked([&] { return weft::concat(parts, axis); });
  }, nb::arg("arrays"), nb::arg("axis").none());
  m.def("_stack", [](nb::handle arrays, int axis) {
    return make_array(weft::stack(arrays_of(arrays, "stack"), axis));
  });
  m.def("_unstack", [](nb::handle x, int axis) { return to_list(weft::unstack(array_of(x, "unstack"), axis)); });
  m.def("_expand_dims", [](nb::handle x, const std::vector<int>& axes) {
    return make_array(weft::expand_dims(array_of(x, "expand_dims"), axes));
  });
  m.def("_squeeze", [](nb::handle x, std::optional<std::vector<int>> axes) {
    return make_array(weft::squeeze(array_of(x, "squeeze"), axes));
  }, nb::arg("x"), nb::arg("axes").none());
  m.def("_flip", [](nb::handle x, std::optional<std::vector<int>> axes) {
    return make_array(weft::flip(array_of(x, "flip"), axes));
  }, nb::arg("x"), nb::arg("axes").none());
  m.def("_moveaxis", [](nb::handle x, const std::vector<int>& source, const std::vector<int>& destination) {
    return make_array(weft::moveaxis(array_of(x, "moveaxis"), source, destination));
  });
  m.def("_permute_dims", [](nb::handle x, const std::vector<int>& axes) {
    return make_array(weft::permute_dims(array_of(x, "permute_dims"), axes));
  });
  m.def("_repeat", [](nb::handle x, nb::handle repeats, std::optional<int> axis) {
    const weft::Array& a = array_of(x, "repeat");
    if (nb::isinstance<PyArray>(repeats)) {
      const weft::Array r = as_py(repeats).array();
      return unlocked([&] { return weft::repeat(a, r, axis); });  // it waits for the total of the counts
    }
    return make_array(weft::repeat(a, nb::cast<std::int64_t>(repeats), axis));
  }, nb::arg("x"), nb::arg("repeats"), nb::arg("axis").none());
  m.def("_roll", [](nb::handle x, const std::vector<std::int64_t>& shifts, std::optional<std::vector<int>> axes) {
    return make_array(weft::roll(array_of(x, "roll"), shifts, axes));
  }, nb::arg("x"), nb::arg("shifts"), nb::arg("axes").none());
  m.def("_tile", [](nb::handle x, const std::vector<std::int64_t>& reps) {
    return make_array(weft::tile(array_of(x, "tile"), reps));
  });
  m.def("_take", [](nb::handle x, nb::handle indices, std::optional<int> axis) {
    const weft::Array a = array_of(x, "take"), i = array_of(indices, "take");
    return unlocked([&] { return weft::take(a, i, axis); });  // it waits for the check of the indices
  }, nb::arg("x"), nb::arg("indices"), nb::arg("axis").none());
  m.def("_take_along_axis", [](nb::handle x, nb::handle indices, std::optional<int> axis) {
    const weft::Array a = array_of(x, "take_along_axis"), i = array_of(indices, "take_along_axis");
    return unlocked([&] { return weft::take_along_axis(a, i, axis); });
  }, nb::arg("x"), nb::arg("indices"), nb::arg("axis").none());
  m.def("_cumulative", [](const std::string& what, nb::handle x, std::optional<int> axis,
                          std::optional<std::string> dtype, bool include_initial) {
    const weft::Expr e = need_operand(x, what.c_str());
    const std::optional<weft::DType> t = dtype ? std::optional(dtype_arg(*dtype)) : std::nullopt;
    return make_array(what == "cumulative_sum" ? weft::cumulative_sum(e, axis, t, include_initial)
                                               : weft::cumulative_prod(e, axis, t, include_initial));
  }, nb::arg("what"), nb::arg("x"), nb::arg("axis").none(), nb::arg("dtype").none(), nb::arg("include_initial"));
  m.def("_count_nonzero", [](nb::handle x, const std::vector<int>& axes, bool keepdims) {
    return make_array(weft::count_nonzero(need_operand(x, "count_nonzero"), axes, keepdims));
  });
  m.def("_diff", [](nb::handle x, int axis, int n, nb::handle prepend, nb::handle append) {
    const weft::Array none;
    return make_array(weft::diff(array_of(x, "diff"), axis, n, prepend.is_none() ? none : array_of(prepend, "diff"),
                                 append.is_none() ? none : array_of(append, "diff")));
  }, nb::arg("x"), nb::arg("axis"), nb::arg("n"), nb::arg("prepend").none(), nb::arg("append").none());
}

}  // namespace weftpy
