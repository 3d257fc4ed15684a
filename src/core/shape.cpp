#include "weft/shape.hpp"

#include <algorithm>
#include <sstream>

#include "weft/error.hpp"

namespace weft {

namespace {
std::string list(const std::vector<std::int64_t>& dims) {
  std::string t;
  for (auto d : dims) t += (t.empty() ? "" : ", ") + std::to_string(d);
  return "(" + t + (dims.size() == 1 ? ",)" : ")");
}

// Extents are never negative, and the element count (their product) is an int64: a product
// that wraps would make a huge shape look small (or empty) to everything after.
void check_dims(const std::vector<std::int64_t>& dims) {
  std::int64_t n = 1;
  bool overflow = false;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      throw InvalidArgument("negative extent " + std::to_string(dims[i]) + " in dimension " +
                            std::to_string(i) + " of a shape");
    }
    if (dims[i] != 0 && n > INT64_MAX / dims[i]) overflow = true;
    else n *= dims[i];
  }
  const bool empty = std::find(dims.begin(), dims.end(), std::int64_t{0}) != dims.end();
  if (overflow && !empty) {
    throw InvalidArgument("shape " + list(dims) + ": the number of elements overflows a 64-bit integer");
  }
}
}  // namespace

Shape::Shape(std::initializer_list<std::int64_t> dims) : dims_(dims) { check_dims(dims_); }
Shape::Shape(std::vector<std::int64_t> dims) : dims_(std::move(dims)) { check_dims(dims_); }

std::int64_t Shape::size() const noexcept {
  // The constructor refused products that overflow, except with an extent 0 somewhere: the
  // product is then 0, and must not be formed from the large extents first.
  for (auto d : dims_) {
    if (d == 0) return 0;
  }
  std::int64_t n = 1;
  for (auto d : dims_) n *= d;
  return n;
}

Strides contiguous_strides(const Shape& shape) {
  Strides strides(shape.ndim());
  std::int64_t step = 1;
  for (std::size_t i = shape.ndim(); i-- > 0;) {
    strides[i] = step;
    step *= std::max<std::int64_t>(shape[i], 1);
  }
  return strides;
}

bool is_contiguous(const Shape& shape, const Strides& strides) {
  if (strides.size() != shape.ndim()) return false;
  std::int64_t step = 1;
  for (std::size_t i = shape.ndim(); i-- > 0;) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != step) return false;
    step *= shape[i];
  }
  return true;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const std::size_t n = std::max(a.ndim(), b.ndim());
  std::vector<std::int64_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t da = i < n - a.ndim() ? 1 : a[i - (n - a.ndim())];
    const std::int64_t db = i < n - b.ndim() ? 1 : b[i - (n - b.ndim())];
    if (da != db && da != 1 && db != 1) {
      throw InvalidArgument("shapes " + to_string(a) + " and " + to_string(b) +
                            " cannot be broadcast together (dimension " + std::to_string(i) +
                            ": " + std::to_string(da) + " vs " + std::to_string(db) + ")");
    }
    out[i] = da == 1 ? db : da;
  }
  return Shape(std::move(out));
}

std::string to_string(const Shape& shape) {
  std::ostringstream os;
  os << '(';
  for (std::size_t i = 0; i < shape.ndim(); ++i) {
    if (i) os << ", ";
    os << shape[i];
  }
  if (shape.ndim() == 1) os << ',';
  os << ')';
  return os.str();
}

}  // namespace weft
