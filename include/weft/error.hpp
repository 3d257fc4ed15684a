// The weft::Error hierarchy: every failure weft reports is one of these.
//
//   try { auto prg = weft::Program::build(dev, src); }
//   catch (const weft::BuildError& e) { std::cerr << e.what() << e.log(); }
//
// BuildError carries the compiler's log and the offending source lines; DeviceError the
// backend's own error name and the call that failed; OutOfMemory the request; InvalidArgument
// a shape, dtype, device or argument mismatch caught before anything is launched (DTypeError
// an operation the dtypes do not support, ValueOutOfRange a number its dtype cannot hold); ConfigError
// a malformed environment variable; Unsupported something this device or build cannot do.
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace weft {

/// Base of every exception weft throws.
class WEFT_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// A kernel failed to compile. what() holds a summary with the offending source lines,
/// log() the compiler's full output, source() the source that was compiled.
class WEFT_API BuildError : public Error {
 public:
  BuildError(const std::string& message, std::string log, std::string source)
      : Error(message), log_(std::move(log)), source_(std::move(source)) {}
  const std::string& log() const noexcept { return log_; }
  const std::string& source() const noexcept { return source_; }

 private:
  std::string log_;
  std::string source_;
};

/// A backend call failed. name() is the backend's own error name (CL_OUT_OF_RESOURCES,
/// CUDA_ERROR_LAUNCH_FAILED, ...), call() the API call that returned it.
class WEFT_API DeviceError : public Error {
 public:
  DeviceError(const std::string& message, std::string name = {}, std::string call = {})
      : Error(message), name_(std::move(name)), call_(std::move(call)) {}
  const std::string& name() const noexcept { return name_; }
  const std::string& call() const noexcept { return call_; }

 private:
  std::string name_;
  std::string call_;
};

/// An allocation could not be satisfied. requested() is the size asked for, in bytes.
class WEFT_API OutOfMemory : public DeviceError {
 public:
  OutOfMemory(const std::string& message, std::size_t requested, std::string name = {},
              std::string call = {})
      : DeviceError(message, std::move(name), std::move(call)), requested_(requested) {}
  std::size_t requested() const noexcept { return requested_; }

 private:
  std::size_t requested_;
};

/// A caller passed something weft cannot use: wrong shape, dtype, device, argument type,
/// size or selector. Raised before any work is launched.
class WEFT_API InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// An operation the operands' dtypes do not support, as NumPy refuses it: bitwise operators
/// on floats, subtraction or negation of bools.
class WEFT_API DTypeError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

/// A number that does not fit the dtype it must take (NumPy 2's rule for Python integers:
/// an int8 array plus 300 is refused, not wrapped).
class WEFT_API ValueOutOfRange : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

/// An index outside the extent it indexes (take's indices, as NumPy's IndexError).
class WEFT_API IndexOutOfRange : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

/// An environment variable (WEFT_DEVICE, WEFT_NUM_THREADS, ...) holds a malformed value.
class WEFT_API ConfigError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

/// The device, backend or build cannot do what was asked (a kernel with barriers on the
/// host backend, a backend whose library is missing, ...). The message says what can.
class WEFT_API Unsupported : public Error {
 public:
  using Error::Error;
};

}  // namespace weft
