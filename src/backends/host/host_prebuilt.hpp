// Kernels the library ships prebuilt for the host backend, so that the first result of a new
// array expression does not wait for the system C++ compiler (issue 29, "first-use latency").
//
// At build time `weft_host_prebuilt_gen` (tools/host_prebuilt_gen.cpp) runs the array
// library's standard operations per dtype on the host device and records every program they
// build: the very dialect source the array layer generates at run time, compiled by the same
// compile_host_module as any kernel, for the build's baseline CPU (no -march=native). The
// shared objects are packed into one blob linked into libweft (host_prebuilt_data.S).
//
// At run time the host compiler looks a new program up here first (WEFT_HOST_PREBUILT, on by
// default): a hit runs at once, and the program's own build (-march=native, as every host
// kernel) goes on in the background (runtime/background_builds.hpp) and replaces the
// prebuilt code when done, then stays in the program cache as usual. The prebuilt code
// computes what the native build computes, bit for bit: both come from one source, and GCC
// in ISO C++ mode contracts no a*b+c into an FMA and reorders no floating-point arithmetic
// whatever the -march (tests/backends/host/test_host_prebuilt.cpp compares every entry).
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

  /// A pack of images by key.
  static std::string encode(const std::vector<std::pair<Digest, std::string>>& images);

 private:
  struct Entry {
    Digest key;
    std::string_view image;
  };
  std::vector<Entry> entries_;  // sorted by key
};

}  // namespace weft::detail
