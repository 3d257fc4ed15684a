// weft.Array's binding, one file a concept: operand conversion (array_operands.cpp), the
// class with its properties, views and host copies (array_class.cpp), arithmetic and math
// functions (array_arithmetic.cpp), indexing (array_indexing.cpp), reductions
// (array_reductions.cpp), sorting and searching (array_sorting.cpp), creation and copies
// between devices (array_creation.cpp), and the array layer's memory and queue
// (array_memory.cpp). What more than one of them uses.
#pragma once

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common.hpp"

namespace weftpy {

inline PyArray& as_py(nb::handle h) { return nb::cast<PyArray&>(h); }
/// The weft.Array behind h; anything else is a TypeError naming who (the function) called.
inline const weft::Array& need_array(nb::handle h, const char* who) {
  if (!nb::isinstance<PyArray>(h)) throw nb::type_error((std::string(who) + ": expected a weft.Array").c_str());
  return as_py(h).array();
}

/// Arrays in a tuple or a list, as the signatures (and the generated stub) show them.
using ArrayTuple = nb::typed<nb::tuple, ArrayObject, nb::ellipsis>;
using ArrayList = nb::typed<nb::list, ArrayObject>;
/// A tuple's item that may be None.
using MaybeArray = std::optional<ArrayObject>;

/// An operand of an arithmetic operation, or nothing when the type is not one weft takes.
std::optional<weft::Expr> operand(nb::handle h);
/// The operand h, or TypeError naming who when its type is not one weft takes.
weft::Expr need_operand(nb::handle h, const char* who);

/// A shape (or strides) from an int or a sequence of ints.
std::vector<std::int64_t> shape_arg(nb::handle h);
/// Axes from None (all), an int or a sequence, normalized against ndim.
std::vector<int> axes_arg(nb::handle h, std::size_t ndim);

// The parts of register_arrays (array_class.cpp), after the class: each adds its methods to
// cls and its functions to m.
void register_array_arithmetic(nb::module_& m, nb::class_<PyArray>& cls);
void register_array_indexing(nb::module_& m, nb::class_<PyArray>& cls);
void register_array_reductions(nb::module_& m);
void register_array_sorting(nb::module_& m);
void register_array_creation(nb::module_& m);
void register_array_memory(nb::module_& m);
void register_array_histogram(nb::module_& m);
void register_array_manipulation(nb::module_& m);
void register_array_functions(nb::module_& m);
void register_array_linalg(nb::module_& m);

}  // namespace weftpy
