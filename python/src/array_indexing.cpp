// weft.Array's indexing for Python: views by NumPy's basic indexing (integers, slices,
// Ellipsis, None) for __getitem__ and __setitem__, and the primitives of advanced indexing
// (index arrays, masks), planned in python/weft/_indexing.py and run by src/array/indexing.
#include <string>

#include "arrays.hpp"

namespace weftpy {

namespace {

/// A view of a selected by a NumPy basic index: integers, slices, Ellipsis and None.
weft::Array index_view(const weft::Array& a, nb::handle key) {
  nb::tuple items = nb::isinstance<nb::tuple>(key) ? nb::borrow<nb::tuple>(key) : nb::make_tuple(key);
  std::size_t consuming = 0;
  bool ellipsis = false;
  for (nb::handle k : items) {
    if (k.ptr() == Py_Ellipsis) {
      if (ellipsis) throw nb::index_error("an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (!k.is_none()) {
      ++consuming;
    }
  }
  if (consuming > a.ndim()) {
    throw nb::index_error(("too many indices for array: array is " + std::to_string(a.ndim()) +
                           "-dimensional, but " + std::to_string(consuming) + " were indexed")
                              .c_str());
  }
  std::vector<std::int64_t> shape, strides;
  std::int64_t offset = a.offset();
  std::size_t axis = 0;
  auto take_rest = [&](std::size_t upto) {
    for (; axis < upto; ++axis) {
      shape.push_back(a.shape()[axis]);
      strides.push_back(a.strides()[axis]);
    }
  };
  for (nb::handle k : items) {
    if (k.ptr() == Py_Ellipsis) {
      take_rest(axis + (a.ndim() - consuming));
    } else if (k.is_none()) {
      shape.push_back(1);
      strides.push_back(0);
    } else if (PySlice_Check(k.ptr())) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(k.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
      const Py_ssize_t len = PySlice_AdjustIndices(static_cast<Py_ssize_t>(a.shape()[axis]), &start, &stop, step);
      if (len > 0) offset += static_cast<std::int64_t>(start) * a.strides()[axis];  // start may be -1 when empty
      shape.push_back(len);
      strides.push_back(a.strides()[axis] * step);
      ++axis;
    } else if (PyIndex_Check(k.ptr()) && !PyBool_Check(k.ptr())) {
      const Py_ssize_t i = PyNumber_AsSsize_t(k.ptr(), PyExc_IndexError);
      if (i == -1 && PyErr_Occurred()) throw nb::python_error();
      const std::int64_t n = a.shape()[axis];
      const std::int64_t j = i < 0 ? i + n : i;
      if (j < 0 || j >= n) {
        throw nb::index_error(("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                               " with size " + std::to_string(n))
                                  .c_str());
      }
      offset += j * a.strides()[axis];
      ++axis;
    } else {
      throw nb::index_error(("only integers, slices, Ellipsis and None index a weft.Array (got " +
                             nb::cast<std::string>(nb::type_name(k.type())) +
                             "); arrays index it through weft.Array.__getitem__")
                                .c_str());
    }
  }
  take_rest(a.ndim());
  return a.as_strided(weft::Shape(shape), strides, offset);
}

}  // namespace

void register_array_indexing(nb::module_& m, nb::class_<PyArray>& cls) {
  // (Any: weft.Array's own __getitem__ and __setitem__, python/weft/_array.py, take more and
  // narrow the value.)
  cls.def("__getitem__", [](nb::handle self, nb::handle key) { return make_array(index_view(as_py(self).array(), key)); },
          nb::arg("key").none(), nb::sig("def __getitem__(self, key: typing.Any) -> Array"))
      .def("__setitem__", [](nb::handle self, nb::handle key, nb::handle value) {
        weft::Array view = index_view(as_py(self).array(), key);
        const weft::Expr e = need_operand(value, "__setitem__");
        before_write(view);
        view.assign(e);
      }, nb::arg("key").none(), nb::arg("value").none(), nb::sig("def __setitem__(self, key: typing.Any, value: typing.Any) -> None"));
  m.def("_as_strided", [](nb::handle a, nb::handle shape, nb::handle strides, std::int64_t offset) {
    // Another view of a's allocation (strides and offset in elements); the indexing code uses
    // it to read and write whole allocations through index arithmetic.
    return make_array(as_py(a).array().as_strided(weft::Shape(shape_arg(shape)), shape_arg(strides), offset));
  }, nb::arg("a"), nb::arg("shape"), nb::arg("strides"), nb::arg("offset"));
  // NumPy's advanced indexing, planned in python/weft/_indexing.py, run by src/array/indexing.
  m.def("_gather", [](nb::handle src, nb::handle off, nb::handle roff, std::int64_t post, nb::handle shape) {
    const weft::Array a = as_py(src).array();
    const weft::IndexPlan plan{as_py(off).array(), as_py(roff).array(), post, weft::Shape(shape_arg(shape))};
    weft::Array out;
    {
      nb::gil_scoped_release unlocked;
      out = weft::gather(a, plan);
    }
    return make_array(std::move(out));
  }, nb::arg("src"), nb::arg("off"), nb::arg("roff"), nb::arg("post"), nb::arg("shape"));
  m.def("_scatter", [](nb::handle dst, nb::handle off, nb::handle roff, std::int64_t post, nb::handle shape,
                       nb::handle values) {
    const weft::Array a = as_py(dst).array();
    const weft::IndexPlan plan{as_py(off).array(), as_py(roff).array(), post, weft::Shape(shape_arg(shape))};
    const weft::Array v = as_py(values).array();
    nb::gil_scoped_release unlocked;
    weft::scatter(a, plan, v);
  }, nb::arg("dst"), nb::arg("off"), nb::arg("roff"), nb::arg("post"), nb::arg("shape"), nb::arg("values"));
  m.def("_compress", [](nb::handle src, nb::handle mask) {
    const weft::Array a = as_py(src).array(), selected = as_py(mask).array();
    weft::Array out;
    {
      nb::gil_scoped_release unlocked;  // it waits for the count of selected rows
      out = weft::masked_select(a, selected);
    }
    return make_array(std::move(out));
  }, nb::arg("src"), nb::arg("mask"));
  m.def("_expand", [](nb::handle dst, nb::handle mask, nb::handle values) {
    const weft::Array a = as_py(dst).array(), selected = as_py(mask).array(), v = as_py(values).array();
    nb::gil_scoped_release unlocked;
    weft::masked_scatter(a, selected, v);
  }, nb::arg("dst"), nb::arg("mask"), nb::arg("values"));
  m.def("_assign_where", [](nb::handle target, nb::handle condition, nb::handle value) {
    // target[...] = where(condition, value, target) in one kernel: the where is never a lazy
    // array of its own (which the write would first evaluate into a temporary).
    weft::Array a = as_py(target).array();
    before_write(a);
    a.assign(weft::where(need_operand(condition, "where"), need_operand(value, "where"), weft::Expr(a)));
  }, nb::arg("target"), nb::arg("condition"), nb::arg("value"));
}

}  // namespace weftpy
