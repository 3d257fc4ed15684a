// Support for the kernel generators (elementwise.hpp, reduction.hpp, scan.hpp): the programs
// of one generated source, built once per device, and the binding of call arguments to the
// argument specs. Not a public API of its own.
#pragma once

#include "weft/export.hpp"

#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "weft/arg_spec.hpp"
#include "weft/buffer.hpp"
#include "weft/kernel_args.hpp"
#include "weft/program.hpp"

namespace weft::detail {

/// A number of any C++ arithmetic type on its way to a value argument.
struct WEFT_API ScalarArg {
  enum class Kind { signed_int, unsigned_int, floating } kind;
  long long i = 0;
  unsigned long long u = 0;
  double f = 0;
};

template <class A>
ScalarArg scalar_arg(const A& a) {
  if constexpr (std::is_floating_point_v<A>) return {ScalarArg::Kind::floating, 0, 0, static_cast<double>(a)};
  else if constexpr (std::is_signed_v<A>) return {ScalarArg::Kind::signed_int, static_cast<long long>(a), 0, 0};
  else return {ScalarArg::Kind::unsigned_int, 0, static_cast<unsigned long long>(a), 0};
}

/// Binds a buffer to a pointer spec; InvalidArgument when the spec is a value or the buffer's
/// dtype differs from the spec's.
WEFT_API void bind_buffer(KernelArgs& args, std::size_t index, const ArgSpec& spec, const Buffer& buffer, std::string_view who);
/// Binds a number to a value spec, converted to its type; InvalidArgument for a pointer spec.
WEFT_API void bind_scalar(KernelArgs& args, std::size_t index, const ArgSpec& spec, const ScalarArg& value,
                 std::string_view who);
/// InvalidArgument when count differs from the number of specs.
WEFT_API void check_arg_count(std::string_view who, const std::vector<ArgSpec>& specs, std::size_t count);

template <class A>
void bind_one(KernelArgs& k, std::size_t index, const ArgSpec& spec, const A& a, std::string_view who) {
  if constexpr (std::is_same_v<A, Buffer>) {
    bind_buffer(k, index, spec, a, who);
  } else if constexpr (std::is_arithmetic_v<A>) {
    bind_scalar(k, index, spec, scalar_arg(a), who);
  } else {
    static_assert(std::is_same_v<A, Buffer> || std::is_arithmetic_v<A>,
                  "a generated kernel takes weft::Buffer for pointer arguments and numbers for values");
  }
}

/// An argument known only at run time: a buffer or a number.
struct WEFT_API RuntimeArg {
  Buffer buffer;     // used when is_buffer
  ScalarArg scalar;  // otherwise
  bool is_buffer = false;
  static RuntimeArg of(Buffer b) { return {std::move(b), {}, true}; }
  template <class A>
  static RuntimeArg of_value(const A& a) {
    return {{}, scalar_arg(a), false};
  }
};

/// Binds arguments known only at run time (the array layer's expressions), in order, to the
/// first specs.size() parameters. Each call binds into arguments of its own (KernelArgs): a
/// generator's kernels are shared by every thread that calls it and hold no call's state.
WEFT_API void bind_runtime_args(KernelArgs& k, const std::vector<ArgSpec>& specs, std::string_view who,
                       std::span<const RuntimeArg> args);

/// Binds the user's arguments, in order, to the first specs.size() parameters.
template <class... A>
void bind_user_args(KernelArgs& k, const std::vector<ArgSpec>& specs, std::string_view who, const A&... args) {
  check_arg_count(who, specs, sizeof...(A));
  std::size_t i = 0;
  ((bind_one(k, i, specs[i], args, who), ++i), ...);
}

/// Copies the first count arguments of from into to: the user's, bound once for two kernels
/// that take them alike.
WEFT_API void copy_user_args(const KernelArgs& from, KernelArgs& to, std::size_t count);

/// One generated source and its programs, built on first use on each device (with build
/// options that depend on the device's kind) and kept: a repeat call finds its program by
/// comparing a pointer, building no string and hashing nothing.
class WEFT_API GeneratedSource {
 public:
  explicit GeneratedSource(std::string source) : source_(std::move(source)) {}
  const std::string& source() const noexcept { return source_; }
  /// The program for device; device_options are appended to the build options.
  Program program(const Device& device, std::string_view device_options);
  /// The same, with the registers per work-item capped at `registers` on NVIDIA devices
  /// (-cl-nv-maxrregcount; more work-groups per compute unit). A cap under which `kernel`
  /// spills registers to memory costs more than it gains: when the capped build places more
  /// private bytes in memory than the uncapped one, the uncapped build is kept. `forced`
  /// (the user asked for this cap) keeps the cap whatever it costs.
  Program program_within_cap(const Device& device, std::string_view device_options, std::size_t registers,
                             std::string_view kernel, bool forced = false);

 private:
  std::string source_;
  std::mutex mutex_;
  std::vector<std::pair<const void*, Program>> built_;
};

/// The dialect source of the complex types' helpers (src/kernels/cl/complex.cl): cfloat's,
/// and with_double cdouble's and the conversions between the two (fp64 on OpenCL). Each part
/// is guarded, so a source may hold it twice.
WEFT_API const std::string& complex_helpers(bool with_double);

/// Replaces every ${KEY} in text.
WEFT_API std::string substitute(std::string_view text, const std::vector<std::pair<std::string, std::string>>& values);

/// The user's argument list as kernel parameters: "__global float *x, float a, ".
WEFT_API std::string parameter_list(const std::vector<ArgSpec>& specs);
/// The names, comma-separated with a trailing ", ": "x, a, ".
WEFT_API std::string name_list(const std::vector<ArgSpec>& specs);

}  // namespace weft::detail
