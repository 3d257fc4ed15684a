// Users' device functions in lazy expressions, for Python (@weft.vectorize's C++ side):
// weft._weft.DeviceFunction (a dialect function of numbers) and apply_function, its lazy
// elementwise application, fused with the operations around it.
#include <nanobind/stl/pair.h>

#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"

namespace weftpy {

void register_array_functions(nb::module_& m) {
  nb::class_<weft::DeviceFunction>(m, "DeviceFunction",
      "A function of numbers in the kernel dialect, applied elementwise inside lazy expressions by\n"
      "apply_function (the machinery of @weft.vectorize, which makes these from Python functions).\n"
      "\n"
      "``DeviceFunction(name, params, result, definitions)``: params and result are dtype names;\n"
      "definitions are (name, text) pairs, the function itself last (helpers it calls before it;\n"
      "a name met again in the same kernel is emitted once).")
      .def("__init__",
           [](weft::DeviceFunction* self, std::string name, const std::vector<std::string>& params,
              const std::string& result, const std::vector<std::pair<std::string, std::string>>& definitions) {
             std::vector<weft::DType> types;
             for (const auto& p : params) types.push_back(dtype_arg(p));
             std::vector<weft::DeviceFunction::Definition> defs;
             for (const auto& [n, text] : definitions) defs.push_back({n, text});
             new (self) weft::DeviceFunction(std::move(name), std::move(types), dtype_arg(result), std::move(defs));
           },
           nb::arg("name"), nb::arg("params"), nb::arg("result"), nb::arg("definitions"))
      .def_prop_ro("name", &weft::DeviceFunction::name)
      .def_prop_ro("result", [](const weft::DeviceFunction& f) {
        return std::string(f.result() == weft::DType::bool_ ? "bool" : weft::name(f.result()));
      })
      .def("__repr__", [](const weft::DeviceFunction& f) { return "<weft device function " + f.name() + ">"; });
  m.def("apply_function", [](const weft::DeviceFunction& f, const std::vector<nb::object>& args) {
    std::vector<weft::Expr> exprs;
    for (const nb::object& a : args) exprs.push_back(need_operand(a, f.name().c_str()));
    return make_lazy(f(exprs));
  }, nb::arg("function"), nb::arg("args"),
        "The lazy elementwise application of a DeviceFunction to weft arrays and numbers (broadcast\n"
        "together as NumPy's operands), fused with the operations around it.");
}

}  // namespace weftpy
