// The pieces every reduction and scan of an expression is built from.
#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/reduction_kernels.hpp"
#include "weft/error.hpp"

namespace weft::detail {

ElementFunction element_function(const detail::Signature& sig, const std::string& value, const std::string& type) {
  ElementFunction f;
  f.params = sig.spec.substr(2);
  f.names = sig.names;
  std::string params_global = f.params;
  for (std::size_t pos = 0; (pos = params_global.find("const ", pos)) != std::string::npos; pos += 15) {
    params_global.replace(pos, 6, "__global const ");
  }
  f.preamble = detail::helpers() + sig.functions + type + " weft_element(long i, " + params_global + ") { " + sig.offsets +
               " return (" + type + ")(" + value + "); }\n";
  return f;
}

bool is_arg(const std::string& what) { return what == "argmin" || what == "argmax"; }

// NumPy's result type of each reduction, and the type it accumulates in.
DType axis_result_type(const std::string& what, DType t) {
  if (what == "any" || what == "all") return DType::bool_;
  if (is_arg(what)) return DType::int64;
  if (what == "min" || what == "max") return t;
  if (is_complex(t)) return t;  // sum, prod and mean of complex numbers
  if (what == "mean") return is_floating(t) ? t : DType::float64;
  // sum and prod: small integers widen to the platform integer, as NumPy's.
  if (t == DType::bool_ || is_signed_integer(t)) return DType::int64;
  if (!is_floating(t)) return DType::uint64;
  return t;
}
DType accumulator_type(const std::string& what, DType result, DType t) {
  if (what == "min" || what == "max" || is_arg(what)) return t == DType::bool_ ? DType::uint8 : t;
  if (what == "any" || what == "all") return DType::uint8;
  // Float sums in double (more exact than NumPy's pairwise float32 sums, within its error);
  // float products in their own type, as NumPy's: a float32 product overflows to inf (and
  // inf * 0 to NaN) where NumPy's does.
  if (what == "prod") return result;
  return is_floating(result) ? DType::float64 : result;
}

std::vector<std::size_t> normalize_axes(const std::vector<int>& axes, std::size_t ndim, const char* what) {
  std::vector<std::size_t> out;
  for (int a : axes) {
    const int n = static_cast<int>(ndim);
    if (a < -n || a >= n) {
      throw InvalidArgument(std::string(what) + ": axis " + std::to_string(a) + " is out of range for " +
                            std::to_string(ndim) + " dimension(s)");
    }
    const auto u = static_cast<std::size_t>(a < 0 ? a + n : a);
    if (std::find(out.begin(), out.end(), u) != out.end()) {
      throw InvalidArgument(std::string(what) + ": axis " + std::to_string(a) + " is named twice");
    }
    out.push_back(u);
  }
  if (axes.empty()) {
    for (std::size_t d = 0; d < ndim; ++d) out.push_back(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace weft::detail
