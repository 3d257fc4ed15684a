// Kernels the library ships prebuilt for the host backend, so that the first result of a new
// array expression does not wait for the system C++ compiler (issue 29, "first-use latency").
//
// At build time `weft_host_prebuilt_gen` (tools/host_prebuilt_gen.cpp) runs the array
// library's standard operations per dtype on the host device and records every program they
// build: the very dialect source the array layer generates at run time, compiled by the same
// compile_host_module with the library's own flags. The shared objects are packed into one
// blob linked into libweft (host_prebuilt_data.cpp).
//
// At run time the program builder looks a new program up here (WEFT_HOST_PREBUILT, on by
// default) when the disk cache does not hold it. The key holds the toolchain's identity
// (compiler, version, CPU, flags): on the machine and compiler the library was built with, a
// prebuilt kernel is the code a compile makes: the same translation, flags and toolchain, and
// each function's instructions the same as in a compile of its program alone (measured,
// docs/HOST_PREBUILT.md; its shared object holds its batch's other programs too); elsewhere
// nothing matches and kernels compile as before. The stepwise evaluation of new expressions (array/stepwise.hpp)
// runs on these kernels.
//
// The generator compiles the kernels several programs to one translation unit (the compiler's
// start and the prelude paid once per batch, not per kernel): each program's namespace and
// exported symbols carry an infix (batch_infix), and every program of a batch is filed under
// its own key with the batch's shared object, stored once in the pack. The loader looks a
// kernel's entry points up under their plain names and then under the infix of the program's
// translation (HostCompiler::load).
//
//   if (auto image = HostPrebuilt::instance().find(HostPrebuilt::key(source, flags))) ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/hash.hpp"

namespace weft::detail {

class HostPrebuilt {
 public:
  /// The pack linked into the library (empty in the generator itself).
  static const HostPrebuilt& instance();

  /// Reads a pack made by encode(); Error when it is malformed.
  explicit HostPrebuilt(std::string_view blob);

  /// The key a program's prebuilt shared object is filed under: its dialect source and the
  /// compiler flags of its build options (and what else changes the translation: the
  /// prelude, the library's version, bounds checking).
  static Digest key(std::string_view source, const std::vector<std::string>& flags);

  /// The shared-object image filed under key; nullopt when the pack has none.
  std::optional<std::string_view> find(const Digest& key) const;
  std::size_t size() const noexcept { return entries_.size(); }
  /// Every key in the pack, in its order (tests compare each entry with a native build).
  std::vector<Digest> keys() const;

  /// The infix of a program's exported symbols in a batch of the generator
  /// (weft_run_<infix>_<kernel>): "p" and 16 hex digits of its translation's hash.
  static std::string batch_infix(std::string_view translation);

  /// A pack of images by key; equal images (a batch's programs) are stored once.
  static std::string encode(const std::vector<std::pair<Digest, std::string>>& images);

 private:
  struct Entry {
    Digest key;
    std::string_view image;
  };
  std::vector<Entry> entries_;  // sorted by key
};

}  // namespace weft::detail
