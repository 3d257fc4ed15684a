// The Generator: an expression tree walked in a fixed order into a cache key (key mode) or
// into dialect source (text mode), with the kernel's signature: the arrays, numbers and the
// index arithmetic's extents, offsets and strides.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "array/codegen.hpp"
#include "array/memory_pool.hpp"
#include "array/promotion.hpp"
#include "weft/array.hpp"
#include "weft/error.hpp"

namespace weft::detail {

// What a walk writes: kept by each thread and reused by its CallKeys (cleared, capacity kept).
struct CallKey::Storage {
  struct Leaf {
    const Array* array;
    DType dtype;
    bool general;  // needs strided indexing (not contiguous in the output's shape)
  };
  std::string key;
  std::vector<Leaf> leaves;
  std::vector<const ExprNode*> scalars;
  std::vector<RuntimeArg> args;
  // A walk that sees automatic arrays from a device (CallKey::walk's target): that device, and
  // the copies there of the views met so far (a deque: the leaves point into it).
  const Device* target = nullptr;
  std::deque<std::pair<const Array*, Array>> moved;
  void clear() {
    key.clear();
    leaves.clear();
    scalars.clear();
    args.clear();  // releases the buffers the call held
    target = nullptr;
    moved.clear();
  }
};

namespace {

using Leaf = CallKey::Storage::Leaf;

// The kernel type a number is passed as (numbers of every dtype travel as 64 bits).
// A complex number travels as two doubles: weft_cK and weft_cKi.
std::string scalar_param_type(DType t) {
  if (is_inexact(t)) return "double";
  return t == DType::uint64 ? "ulong" : "long";
}

// The unsigned type integer arithmetic on t wraps in: C's signed overflow is undefined (and
// compilers exploit it), and narrow types are promoted to int first.
std::string wrap_type(DType t) { return size_of(t) == 8 ? "ulong" : "uint"; }

// a op b in integer type t, wrapping as NumPy's (two's complement) arithmetic does.
std::string wrapped(DType t, const std::string& a, const char* op, const std::string& b) {
  const std::string W = wrap_type(t);
  return "((" + kernel_type(t) + ")((" + W + ")(" + a + ") " + op + " (" + W + ")(" + b + ")))";
}

// Walks an expression in a fixed order, collecting its arrays (leaves) and numbers. In key
// mode (text = false) it only writes the cache key: the structure, operations and dtypes,
// which decide the kernel's source; that is all a call whose kernel is cached needs. In
// text mode value() returns the expression's source.
class Generator {
 public:
  // Key mode writes into the storage of a CallKey; text mode into storage of its own.
  Generator(const Shape& out_shape, CallKey::Storage& store, bool text)
      : shape_(out_shape), text_(text), key_(store.key), leaves_(store.leaves), scalars_(store.scalars),
        store_(store) {}

  // The array the kernel writes, as leaf 0.
  void destination(const Array& dest) { add_leaf(dest, dest.dtype()); }

  std::string value(const ExprNode& n) {
    using K = ExprNode::Kind;
    if (!text_) {
      walk_key(n);
      return {};
    }
    switch (n.kind) {
      case K::leaf: {
        const std::string k = std::to_string(add_leaf(seen(n.array), n.dtype));
        return "((" + kernel_type(n.dtype) + ")weft_a" + k + "[weft_o" + k + "])";
      }
      case K::scalar: {
        const std::string c = "weft_c" + std::to_string(add_scalar(n));
        if (n.dtype == DType::complex64 && !n.weak) return "cfloat_new((float)" + c + ", (float)" + c + "i)";
        if (is_complex(n.dtype)) return "cdouble_new(" + c + ", " + c + "i)";
        // A typed number (a NumPy scalar) is of its own dtype; a Python number of the
        // parameter's until an operation converts it.
        if (n.weak || kernel_type(n.dtype) == scalar_param_type(n.dtype)) return c;
        if (n.dtype == DType::bool_) return "((uchar)(" + c + " != 0))";
        return "((" + kernel_type(n.dtype) + ")" + c + ")";
      }
      case K::cast: return as(*n.kids[0], n.dtype);
      case K::unary: {
        if (is_complex(n.kids[0]->dtype)) return complex_unary(n.op, value(*n.kids[0]), n.kids[0]->dtype);
        // Predicates look at the operand in its own type; the rest work in the result's.
        const DType in_type = n.dtype == DType::bool_ ? n.kids[0]->dtype : n.dtype;
        const std::string in = "((" + kernel_type(in_type) + ")(" + value(*n.kids[0]) + "))";
        const bool fl = is_floating(in_type);
        const std::string T = kernel_type(in_type);
        const std::string W = fl ? T : wrap_type(in_type);
        // Integers negate in their unsigned type and are cast back: -(-128) is -128 in int8,
        // abs(INT_MIN) is INT_MIN, as in NumPy (and nothing undefined for the compiler).
        if (n.op == "neg") return fl ? "(-" + in + ")" : "((" + T + ")(0 - (" + W + ")" + in + "))";
        if (n.op == "abs") {
          if (fl) return "fabs(" + in + ")";
          if (!is_signed_integer(in_type)) return in;
          return "((" + T + ")(" + in + " < 0 ? 0 - (" + W + ")" + in + " : (" + W + ")" + in + "))";
        }
        if (n.op == "square") return fl ? "(" + in + " * " + in + ")" : wrapped(in_type, in, "*", in);
        if (n.op == "reciprocal") {
          if (fl) return "((" + T + ")1 / " + in + ")";
          // 1 / x truncated; for 0, NumPy's values: the smallest int32/int64, else 0.
          const bool wide_signed = is_signed_integer(in_type) && size_of(in_type) >= 4;
          const std::string at_zero = wide_signed ? "(" + T + ")((" + W + ")1 << (" + std::to_string(8 * size_of(in_type) - 1) + "))" : "0";
          return "((" + T + ")(" + in + " == 0 ? " + at_zero + " : 1 / " + in + "))";
        }
        if (n.op == "positive" || n.op == "real" || n.op == "conj") return in;
        if (n.op == "imag") return "((" + T + ")0)";  // a real number's imaginary part, as NumPy's
        if (n.op == "angle") return "atan2((" + T + ")0, " + in + ")";
        if (n.op == "sign") return "weft_sign_" + T + "(" + in + ")";
        if (n.op == "signbit") {
          if (fl) return "((uchar)(signbit(" + in + ") != 0))";
          return is_signed_integer(in_type) ? "((uchar)(" + in + " < 0))" : "((uchar)0)";
        }
        if (n.op == "logical_not") return "((uchar)((" + in + ") == 0))";
        if (n.op == "invert") return in_type == DType::bool_ ? "((uchar)((" + in + ") == 0))" : "((" + kernel_type(in_type) + ")~" + in + ")";
        if (n.op == "isnan" || n.op == "isinf" || n.op == "isfinite") {
          if (!fl) return n.op == "isfinite" ? "((uchar)1)" : "((uchar)0)";
          return "((uchar)(" + n.op + "(" + in + ") != 0))";
        }
        if (n.op == "floor" || n.op == "ceil" || n.op == "trunc" || n.op == "round") {
          if (!fl) return in;  // integers are their own floor (NumPy 2 keeps the dtype)
          return (n.op == "round" ? std::string("rint") : n.op) + "(" + in + ")";  // round half to even
        }
        return n.op + "(" + in + ")";
      }
      case K::where: {
        const std::string c = value(*n.kids[0]);
        const std::string t = kernel_type(n.dtype);
        if (is_complex(n.dtype) || is_complex(n.kids[0]->dtype)) {
          const std::string a = as(*n.kids[1], n.dtype);
          const std::string b = as(*n.kids[2], n.dtype);
          return "(" + truth(c, n.kids[0]->dtype) + " ? " + a + " : " + b + ")";
        }
        const std::string a = value(*n.kids[1]);
        const std::string b = value(*n.kids[2]);
        // != 0: OpenCL C takes no floating-point condition in ?: (NaN counts as true).
        return "((" + c + ") != 0 ? (" + t + ")(" + a + ") : (" + t + ")(" + b + "))";
      }
      case K::call: {
        // A user function: its definitions go before the kernel (once each, signature()), the
        // arguments converted to its parameters' types (a bool one takes "nonzero").
        functions_.push_back(n.function.get());
        const FunctionDef& f = *n.function;
        std::string call = f.name + "(";
        for (std::size_t k = 0; k < n.kids.size(); ++k) {
          const std::string in = value(*n.kids[k]);
          const DType p = f.params[k];
          call += k ? ", " : "";
          call += p == DType::bool_ && n.kids[k]->dtype != DType::bool_ ? "((uchar)((" + in + ") != 0))"
                                                                        : "((" + kernel_type(p) + ")(" + in + "))";
        }
        call += ")";
        if (f.result == DType::bool_) return "((uchar)((" + call + ") != 0))";
        return "((" + kernel_type(f.result) + ")(" + call + "))";
      }
      case K::binary: break;
    }
    if (is_logical(n.op)) {
      // Each operand is true when nonzero in its own type (logical_and(uint8, 256) is true).
      const std::string a = truth(value(*n.kids[0]), n.kids[0]->dtype);
      const std::string b = truth(value(*n.kids[1]), n.kids[1]->dtype);
      const char* op = n.op == "logical_and" ? " && " : n.op == "logical_or" ? " || " : " != ";
      return "((uchar)(" + a + op + b + "))";
    }
    if (is_predicate(n.op)) {
      const auto [ta, tb] = comparison_types(*n.kids[0], *n.kids[1]);
      if (is_complex(ta)) {  // (operands in order: leaves and numbers are numbered as met)
        const std::string za = as(*n.kids[0], ta);
        const std::string zb = as(*n.kids[1], ta);
        return complex_binary(n.op, za, zb, ta);
      }
      const std::string a = "((" + kernel_type(ta) + ")(" + value(*n.kids[0]) + "))";
      const std::string b = "((" + kernel_type(tb) + ")(" + value(*n.kids[1]) + "))";
      if (ta == tb) return "((uchar)(" + a + " " + n.op + " " + b + "))";
      // A signed and an unsigned 64-bit operand, compared by value.
      if (ta == DType::int64) return "((uchar)(weft_cmp_lu(" + a + ", " + b + ") " + n.op + " 0))";
      return "((uchar)(0 " + n.op + " weft_cmp_lu(" + b + ", " + a + ")))";
    }
    // Operands are converted to the operation's type.
    const DType work = n.dtype;
    if (n.op == "complex") {  // make_complex: the parts as they are
      const DType r = real_of(work);
      const std::string re = as(*n.kids[0], r);
      const std::string im = as(*n.kids[1], r);
      return kernel_type(work) + "_new(" + re + ", " + im + ")";
    }
    if (is_complex(work)) {
      const std::string za = as(*n.kids[0], work);
      const std::string zb = as(*n.kids[1], work);
      return complex_binary(n.op, za, zb, work);
    }
    const std::string t = kernel_type(work);
    const std::string a = "((" + t + ")(" + value(*n.kids[0]) + "))";
    const std::string b = "((" + t + ")(" + value(*n.kids[1]) + "))";
    if (work == DType::bool_ && (n.op == "+" || n.op == "*")) {  // NumPy: or, and
      return "((uchar)((" + a + " != 0) " + (n.op == "+" ? "||" : "&&") + " (" + b + " != 0)))";
    }
    if ((n.op == "+" || n.op == "-" || n.op == "*") && !is_floating(work)) return wrapped(work, a, n.op.c_str(), b);
    if (n.op == "+" || n.op == "-" || n.op == "*" || n.op == "/" || is_bitwise(n.op)) {
      return "((" + t + ")(" + a + " " + n.op + " " + b + "))";
    }
    if (n.op == "atan2" || n.op == "hypot" || n.op == "copysign" || n.op == "nextafter") {
      return n.op + "(" + a + ", " + b + ")";  // OpenCL C's built-ins
    }
    if (n.op == "fmin" || n.op == "fmax") {
      if (is_floating(work)) return n.op + "(" + a + ", " + b + ")";  // NaN-ignoring
      return std::string(n.op == "fmin" ? "weft_minimum_" : "weft_maximum_") + t + "(" + a + ", " + b + ")";
    }
    return "weft_" + n.op + "_" + t + "(" + a + ", " + b + ")";
  }

  const std::vector<Leaf>& leaves() const { return leaves_; }
  const std::vector<const ExprNode*>& scalars() const { return scalars_; }
  const std::vector<const FunctionDef*>& functions() const { return functions_; }
  const std::string& key() const { return key_; }
  bool any_general() const {
    return std::any_of(leaves_.begin(), leaves_.end(), [](const Leaf& l) { return l.general; });
  }

 private:
  // A kid's value converted to type to (complex_codegen.cpp's rules).
  // A complex number is made in the type it is used in (no cdouble in a cfloat kernel).
  std::string as(const ExprNode& kid, DType to) {
    if (kid.kind == ExprNode::Kind::scalar && is_complex(kid.dtype) && is_complex(to)) {
      const std::string c = "weft_c" + std::to_string(add_scalar(kid));
      const std::string R = kernel_type(real_of(to));
      return kernel_type(to) + "_new((" + R + ")" + c + ", (" + R + ")" + c + "i)";
    }
    return convert(value(kid), kid.dtype, to);
  }

  // A leaf's array as the kernel reads it: an automatic array of another device seen from the
  // walk's target (Array::to: its copy there, made current when the call binds it), once per
  // view; any other as it is.
  const Array& seen(const Array& a) {
    const Device* target = store_.target;
    if (!target || !moves_to(a, *target)) return a;
    for (const auto& [from, to] : store_.moved) {
      if (same_view(*from, a)) return to;
    }
    return store_.moved.emplace_back(&a, a.to(*target)).second;
  }

  std::size_t add_leaf(const Array& a, DType dtype) {
    for (std::size_t k = 0; k < leaves_.size(); ++k) {
      if (same_view(*leaves_[k].array, a)) {  // a + a reads a through one parameter
        key_ += 'R';
        append_number(k);
        return k;
      }
    }
    const std::size_t k = leaves_.size();
    const bool general = !(a.is_contiguous() && a.shape() == shape_);
    leaves_.push_back({&a, dtype, general});
    key_ += 'L';
    key_ += name(dtype);
    key_ += general ? "g;" : "c;";
    return k;
  }
  std::size_t add_scalar(const ExprNode& n) {
    scalars_.push_back(&n);
    key_ += 'S';
    key_ += name(n.dtype);
    key_ += ';';
    return scalars_.size() - 1;
  }
  // The same order as value(): kids first to last.
  void walk_key(const ExprNode& n) {
    if (n.kind == ExprNode::Kind::leaf) {
      add_leaf(seen(n.array), n.dtype);
      return;
    }
    if (n.kind == ExprNode::Kind::scalar) {
      add_scalar(n);
      return;
    }
    key_ += static_cast<char>('0' + static_cast<int>(n.kind));
    key_ += n.op;
    key_ += ':';
    key_ += name(n.dtype);
    key_ += '(';
    for (const auto& k : n.kids) walk_key(*k);
    key_ += ')';
  }

  const Shape& shape_;
  bool text_;
  // The key is written with appends, not a stream: a stream's construction alone costs more
  // than the rest of a cached call's key.
  std::string& key_;
  std::vector<Leaf>& leaves_;
  std::vector<const ExprNode*>& scalars_;
  std::vector<const FunctionDef*> functions_;  // text mode: the user functions called, in order
  CallKey::Storage& store_;
  void append_number(std::size_t v) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, v);
    key_.append(digits, r.ptr);
    key_ += ';';
  }
};

// Adds a parameter to the text of a signature.
void add_param(Signature& sig, const std::string& type, const std::string& name) {
  sig.spec += ", " + type + " " + name;
  sig.names += ", " + name;
}

// The stride of a leaf in dimension d of the output (0 where it is broadcast), as
// broadcast_to would give it, without making the view.
std::int64_t broadcast_stride(const Array& a, const Shape& shape, std::size_t d) {
  const std::size_t lead = shape.ndim() - a.shape().ndim();
  if (d < lead || a.shape()[d - lead] == 1) return 0;
  return a.strides()[d - lead];
}

void index_arguments(const Generator& g, const Shape& shape, bool text, Signature& sig, std::vector<RuntimeArg>& args) {
  const std::size_t nd = shape.ndim();
  if (g.any_general()) {
    for (std::size_t d = 0; d < nd; ++d) {
      args.push_back(RuntimeArg::of_value(static_cast<std::int64_t>(shape[d])));
      if (text) add_param(sig, "long", "weft_s" + std::to_string(d));
    }
    // i as a multi-index, last dimension fastest.
    if (text) sig.offsets += "long weft_r = i;";
    for (std::size_t d = nd; text && d-- > 0;) {
      sig.offsets += " const long weft_i" + std::to_string(d) + " = weft_r % weft_s" + std::to_string(d) +
                     "; weft_r /= weft_s" + std::to_string(d) + ";";
    }
  }
  for (std::size_t k = 0; k < g.leaves().size(); ++k) {
    const Array& a = *g.leaves()[k].array;
    const std::string K = text ? std::to_string(k) : std::string();
    args.push_back(RuntimeArg::of_value(a.offset()));
    if (text) add_param(sig, "long", "weft_off" + K);
    if (!g.leaves()[k].general) {
      if (text) sig.offsets += " const long weft_o" + K + " = weft_off" + K + " + i;";
      continue;
    }
    // The leaf's strides in the output's dimensions (0 where it is broadcast).
    std::string sum = text ? "weft_off" + K : std::string();
    for (std::size_t d = 0; d < nd; ++d) {
      args.push_back(RuntimeArg::of_value(broadcast_stride(a, shape, d)));
      if (!text) continue;
      add_param(sig, "long", "weft_st" + K + "_" + std::to_string(d));
      sum += " + weft_i" + std::to_string(d) + " * weft_st" + K + "_" + std::to_string(d);
    }
    if (text) sig.offsets += " const long weft_o" + K + " = " + sum + ";";
  }
}

// The definitions of the user functions a text-mode walk met, each name once: helpers shared
// by several functions are given by each; one name defined two ways is refused.
std::string function_definitions(const Generator& g) {
  std::vector<const DeviceFunction::Definition*> seen;
  std::string out;
  for (const FunctionDef* f : g.functions()) {
    for (const DeviceFunction::Definition& d : f->definitions) {
      const auto same = std::find_if(seen.begin(), seen.end(), [&](const auto* s) { return s->name == d.name; });
      if (same == seen.end()) {
        seen.push_back(&d);
        out += d.text + "\n";
      } else if ((*same)->text != d.text) {
        throw InvalidArgument("an expression calls device functions that define '" + d.name +
                              "' in two different ways; give the definitions different names");
      }
    }
  }
  return out;
}

// Makes the leaves' copies on the kernel's device current together when two or more of them
// have copies elsewhere (make_current_all: their reads into host memory waited for once, where
// one by one each was a round trip to the device that held it). True when it did: every leaf's
// buffer is then current (a leaf whose allocation lives on one device always is).
bool make_leaves_current(const Generator& g) {
  const auto residence = [](const Array& a) { return static_cast<Residence*>(const_cast<void*>(a.allocation_id())); };
  std::size_t spread = 0;
  for (const Leaf& leaf : g.leaves()) {
    const Residence* r = residence(*leaf.array);
    if (r && r->spread.load(std::memory_order_acquire)) ++spread;
  }
  if (spread < 2) return false;
  std::vector<WantedCopy> wanted;
  wanted.reserve(spread);
  for (const Leaf& leaf : g.leaves()) {
    Residence* r = residence(*leaf.array);
    if (r && r->spread.load(std::memory_order_acquire)) wanted.push_back({r, &leaf.array->buffer_handle()});
  }
  make_current_all(wanted);
  return true;
}

// The arguments (args) and, in text mode, the parameter list and offset statements (sig).
void signature(const Generator& g, const Shape& shape, bool text, Signature& sig, std::vector<RuntimeArg>& args) {
  if (text) sig.functions = function_definitions(g);
  // (Made current together: bound as they are, not each looked at again under its lock.)
  const bool current = make_leaves_current(g);
  // Every argument at once: leaves (buffer and offset, strides when general), numbers, extents.
  args.reserve(args.size() + g.scalars().size() + g.leaves().size() * (2 + shape.ndim()) + shape.ndim());
  for (std::size_t k = 0; k < g.leaves().size(); ++k) {
    const Leaf& leaf = g.leaves()[k];
    args.push_back(RuntimeArg::of(current ? leaf.array->buffer_handle() : leaf.array->buffer()));
    // restrict: no two parameters alias memory that the kernel writes (the same view read
    // twice is one parameter, and an assignment reading what it overwrites through another
    // view goes through a temporary), so a work-item's loads may run ahead of its stores.
    if (text) add_param(sig, "const " + kernel_type(leaf.dtype) + " * restrict", "weft_a" + std::to_string(k));
  }
  for (std::size_t k = 0; k < g.scalars().size(); ++k) {
    const ExprNode& n = *g.scalars()[k];
    if (is_complex(n.dtype)) {
      args.push_back(RuntimeArg::of_value(n.value));
      args.push_back(RuntimeArg::of_value(n.imag));
      if (text) add_param(sig, "double", "weft_c" + std::to_string(k));
      if (text) add_param(sig, "double", "weft_c" + std::to_string(k) + "i");
      continue;
    }
    if (is_floating(n.dtype)) args.push_back(RuntimeArg::of_value(n.value));
    else if (n.dtype == DType::uint64) args.push_back(RuntimeArg::of_value(static_cast<std::uint64_t>(n.ivalue)));
    else args.push_back(RuntimeArg::of_value(n.ivalue));
    if (text) add_param(sig, scalar_param_type(n.dtype), "weft_c" + std::to_string(k));
  }
  index_arguments(g, shape, text, sig, args);
}

// The storage of this thread's CallKeys, one per CallKey alive at once (nested calls).
struct Leases {
  std::vector<std::unique_ptr<CallKey::Storage>> storage;
  std::size_t in_use = 0;
};
thread_local Leases leases;

}  // namespace

// Whether two leaves read the same elements the same way (one kernel parameter serves both).
// (The buffers compared as they are: making them current, signature() does for all at once.)
bool same_view(const Array& a, const Array& b) {
  return a.buffer_handle().impl() == b.buffer_handle().impl() && a.dtype() == b.dtype() && a.offset() == b.offset() &&
         a.shape() == b.shape() && a.strides() == b.strides();
}

// Floor division, remainder (Python's sign rules), power, minimum and maximum (NaN-propagating
// for floats), sign, and the integers' shifts and the floats' logaddexp, each as NumPy's for
// every arithmetic type; division by zero gives 0 for integers, as NumPy.
std::string helpers() {
  static const std::string text = [] {
    std::string s;
    for (const char* t : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"}) {
      const std::string T = t;
      const bool is_signed = T[0] != 'u';
      // x / -1 is x negated (wrapping, as NumPy): the CPU's division traps on INT_MIN / -1.
      const std::string minus_one = is_signed ? " if (b == -1) return (" + T + ")(0 - (u" + T + ")a);" : "";
      const std::string minus_one_rem = is_signed ? " if (b == -1) return 0;" : "";
      s += "inline " + T + " weft_floordiv_" + T + "(" + T + " a, " + T + " b) { if (b == 0) return 0;" + minus_one +
           " " + T + " q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1; return q; }\n";
      s += "inline " + T + " weft_remainder_" + T + "(" + T + " a, " + T + " b) { if (b == 0) return 0;" +
           minus_one_rem + " " + T + " r = a % b; if (r != 0 && ((r < 0) != (b < 0))) r += b; return r; }\n";
      // In the unsigned type: the product wraps as NumPy's does, without undefined overflow.
      const std::string W = T == "long" || T == "ulong" ? "ulong" : "uint";
      s += "inline " + T + " weft_power_" + T + "(" + T + " a, " + T + " b) { " + W + " r = 1, x = (" + W +
           ")a; while (b > 0) { if (b & 1) r *= x; x *= x; b >>= 1; } return (" + T + ")r; }\n";
      s += "inline " + T + " weft_minimum_" + T + "(" + T + " a, " + T + " b) { return b < a ? b : a; }\n";
      s += "inline " + T + " weft_maximum_" + T + "(" + T + " a, " + T + " b) { return a < b ? b : a; }\n";
      s += "inline " + T + " weft_sign_" + T + "(" + T + " a) { return (" + T + ")" +
           (is_signed ? "((a > 0) - (a < 0))" : "(a != 0)") + "; }\n";
      // NumPy's shifts: a count at or past the width, or negative (huge as unsigned), shifts
      // every bit out (OpenCL C and the CPUs would take it modulo the width). Left shifts run
      // in the unsigned type (no undefined overflow); narrow types keep the low bits.
      const std::string bits = std::to_string(T == "char" || T == "uchar" ? 8 : T == "short" || T == "ushort" ? 16
                                              : W == "uint" ? 32 : 64);
      s += "inline " + T + " weft_lshift_" + T + "(" + T + " a, " + T + " b) { return (ulong)b < " + bits + " ? (" + T +
           ")((" + W + ")a << b) : (" + T + ")0; }\n";
      s += "inline " + T + " weft_rshift_" + T + "(" + T + " a, " + T + " b) { return (ulong)b < " + bits +
           " ? (" + T + ")(a >> b) : " + (is_signed ? "(" + T + ")(a < 0 ? -1 : 0)" : "(" + T + ")0") + "; }\n";
    }
    s += "inline int weft_cmp_lu(long a, ulong b) { return a < 0 ? -1 : ((ulong)a < b ? -1 : ((ulong)a > b ? 1 : 0)); }\n";
    for (const char* t : {"float", "double"}) {
      const std::string T = t;
      // NumPy's divmod: (a - fmod(a, b)) / b is nearly an integer, so an inexact division
      // (OpenCL allows 2.5 ulp in float) still floors to the right value.
      s += "inline " + T + " weft_floordiv_" + T + "(" + T + " a, " + T + " b) { if (b == 0) return a / b; " + T +
           " m = fmod(a, b); " + T + " d = (a - m) / b; if (m != 0 && ((b < 0) != (m < 0))) d -= 1; if (d == 0) return copysign((" +
           T + ")0, a / b); " + T + " f = floor(d); if (d - f > (" + T + ")0.5) f += 1; return f; }\n";
      s += "inline " + T + " weft_remainder_" + T + "(" + T + " a, " + T + " b) { " + T +
           " r = fmod(a, b); if (r != 0 && ((r < 0) != (b < 0))) r += b; else if (r == 0) r = copysign((" + T +
           ")0, b); return r; }\n";
      s += "inline " + T + " weft_power_" + T + "(" + T + " a, " + T + " b) { return pow(a, b); }\n";
      s += "inline " + T + " weft_minimum_" + T + "(" + T + " a, " + T + " b) { return (a < b || a != a) ? a : b; }\n";
      s += "inline " + T + " weft_maximum_" + T + "(" + T + " a, " + T + " b) { return (a > b || a != a) ? a : b; }\n";
      // 0.0 for -0.0 (not OpenCL's sign, which keeps the zero's sign), NaN for NaN, as NumPy's.
      s += "inline " + T + " weft_sign_" + T + "(" + T + " a) { return a > 0 ? (" + T + ")1 : a < 0 ? (" + T +
           ")-1 : a == 0 ? (" + T + ")0 : a; }\n";
      // NumPy's npy_logaddexp: equal arguments (infinities of one sign too) give x + log(2).
      const std::string ln2 = std::string("0.693147180559945309417232121458176568") + (T == "float" ? "f" : "");
      s += "inline " + T + " weft_logaddexp_" + T + "(" + T + " a, " + T + " b) { if (a == b) return a + " + ln2 +
           "; " + T + " d = a - b; if (d > 0) return a + log1p(exp(-d)); if (d <= 0) return b + log1p(exp(d)); " +
           "return d; }\n";
    }
    return s;
  }();
  return text;
}

CallKey::CallKey() {
  if (leases.in_use == leases.storage.size()) {
    auto fresh = std::make_unique<Storage>();
    fresh->key.reserve(160);
    leases.storage.push_back(std::move(fresh));
  }
  s_ = leases.storage[leases.in_use++].get();
}
CallKey::~CallKey() {
  s_->clear();
  --leases.in_use;
}
CallKey& CallKey::operator<<(std::string_view text) {
  s_->key += text;
  return *this;
}
void CallKey::walk(const Shape& shape, const Array* dest, std::initializer_list<const ExprNode*> roots,
                   const Device* target) {
  s_->target = target;
  Generator g(shape, *s_, false);
  if (dest) g.destination(*dest);
  for (const ExprNode* r : roots) g.value(*r);
  s_->key += '|';
  s_->key += static_cast<char>('0' + shape.ndim());
  Signature unused;
  signature(g, shape, false, unused, s_->args);
}
std::string_view CallKey::key() const { return s_->key; }
std::vector<RuntimeArg>& CallKey::args() { return s_->args; }

Text text_of(const Shape& shape, const Array* dest, std::initializer_list<const ExprNode*> roots,
             const Device* target) {
  CallKey::Storage store;
  store.target = target;
  Generator g(shape, store, true);
  if (dest) g.destination(*dest);
  std::vector<std::string> values;
  for (const ExprNode* r : roots) values.push_back(g.value(*r));
  Text t{values.empty() ? std::string() : values.back(), {}, std::move(values)};
  signature(g, shape, true, t.sig, store.args);
  for (const ExprNode* r : roots) {
    if (has_complex(*r) || (dest && is_complex(dest->dtype()))) {
      // cdouble's helpers only where the kernel names the type (they need fp64 on OpenCL).
      bool with_double = t.sig.spec.find("cdouble") != std::string::npos;
      for (const std::string& v : t.values) with_double = with_double || v.find("cdouble") != std::string::npos;
      t.sig.functions = complex_helpers(with_double) + t.sig.functions;
      break;
    }
  }
  return t;
}

}  // namespace weft::detail
