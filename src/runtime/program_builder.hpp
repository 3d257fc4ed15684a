// Building a program, the same way on every backend: the ProgramBuilder owns the sequence,
// a device's ProgramCompiler does what differs.
//
// The sequence: map the build options (the compiler checks and maps them), hash the key
// (what every key of the device shares, hashed once per device; then the flags, the source
// and every file it #includes), look in the in-memory table, translate, take the payload
// from the disk cache or compile it under the cache's cross-process lock, load it. A cached
// payload that the compiler refuses to load (built by another toolchain state, or lacking a
// kernel of this source) is rebuilt once and stored again. A repeat build of a source this
// device has built is a hash of the flags and the source and one table lookup: no
// translation, no prelude, no disk. A new program whose payload is not on disk but which the
// compiler has prebuilt (ProgramCompiler::prebuilt: the same code its compile makes) is
// loaded from there. build_in_background() builds a program on the background thread
// (runtime/background_builds.hpp) while the caller goes on without it.
//
//   class HostCompiler final : public ProgramCompiler { ... };  // in host_compiler.cpp
//   HostCompiler compiler_{*this};
//   ProgramBuilder builder_{compiler_};
//   auto program = builder_.build(source, "-D N=4");
//
// The builder knows no dialect: a compiler's translate() returns its translation wrapped in
// Translated<T>, which the builder hands back to compile() and load() untouched (the runtime
// sits below the dialect layer).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/program_cache.hpp"
#include "core/hash.hpp"
#include "runtime/backend.hpp"
#include "weft/error.hpp"

namespace weft::detail {

/// A source as one compiler takes it, made by ProgramCompiler::translate and handed back to
/// its compile() and load(). The builder reads only the description.
class TranslatedSource {
 public:
  explicit TranslatedSource(std::string description) : description_(std::move(description)) {}
  virtual ~TranslatedSource() = default;
  TranslatedSource(const TranslatedSource&) = delete;
  TranslatedSource& operator=(const TranslatedSource&) = delete;
  /// What was built ("host program: vadd"): the cache entry's description, the logs' words.
  const std::string& description() const noexcept { return description_; }

 private:
  std::string description_;
};

/// A compiler's own translation type T carried through the builder.
template <class T>
class Translated final : public TranslatedSource {
 public:
  Translated(std::string description, T value) : TranslatedSource(std::move(description)), value_(std::move(value)) {}
  const T& value() const noexcept { return value_; }
  /// The T of a source this compiler's translate() made.
  static const T& of(const TranslatedSource& source) { return static_cast<const Translated&>(source).value_; }

 private:
  T value_;
};

/// What ProgramCompiler::load raises for a payload it will not use (it does not load, or it
/// lacks a kernel of the source): the builder rebuilds a cached payload once on this.
class PayloadRefused : public Error {
 public:
  using Error::Error;
};

/// What a compile made: the payload the disk cache keeps, and the program, where the
/// compiler made it on the way (an OpenCL build), so the builder need not load the payload.
struct CompiledProgram {
  std::string payload;
  std::shared_ptr<ProgramImpl> program;  // null: the builder loads the payload
};

/// What differs between backends when a program is built. One per device.
class ProgramCompiler {
 public:
  virtual ~ProgramCompiler() = default;
  /// The backend's name: its folder in the disk cache and its word in the logs.
  virtual std::string_view backend() const noexcept = 0;
  /// Adds what every key of this device shares (prelude, toolchain, device, driver) to h.
  /// Called once per device, on its first build.
  virtual void hash_device(Hasher& h) const = 0;
  /// The compiler's flags for build options; InvalidArgument for options weft does not accept.
  virtual std::vector<std::string> map_options(std::string_view options) const = 0;
  /// The source as this compiler takes it; BuildError for source the dialect cannot read.
  virtual std::unique_ptr<TranslatedSource> translate(std::string_view source, std::string_view options) const = 0;
  /// Compiles; BuildError with the log and the offending lines of source (the user's).
  virtual CompiledProgram compile(const TranslatedSource& translated, const std::vector<std::string>& flags,
                                  std::string_view source) = 0;
  /// The program of a payload; PayloadRefused when the payload does not load or lacks a
  /// kernel of translated.
  virtual std::shared_ptr<ProgramImpl> load(std::string_view payload, const TranslatedSource& translated,
                                            const std::vector<std::string>& flags) = 0;

  /// The payload the compile would make, made beforehand (the host's prebuilt kernels,
  /// backends/host/host_prebuilt.hpp); nullopt (the default): the program must be compiled.
  virtual std::optional<std::string> prebuilt(std::string_view /*source*/, const std::vector<std::string>& /*flags*/) {
    return std::nullopt;
  }
};

class ProgramBuilder {
 public:
  explicit ProgramBuilder(ProgramCompiler& compiler) : compiler_(compiler) {}
  ProgramBuilder(const ProgramBuilder&) = delete;
  ProgramBuilder& operator=(const ProgramBuilder&) = delete;

  /// The program of source built with options, from memory, the disk cache or a compile.
  /// Throws BuildError, InvalidArgument (options), Unsupported (no compiler).
  std::shared_ptr<ProgramImpl> build(std::string_view source, std::string_view options);

  /// Whether build(source, options) would compile nothing now: the program is in memory, in
  /// the disk cache, or prebuilt (ProgramCompiler::prebuilt).
  bool ready(std::string_view source, std::string_view options);
  /// Whether the compiler has prebuilt programs for this device at all (the host's pack was
  /// made for this compiler and CPU).
  bool prebuilt_available() { return compiler_.prebuilt("", {}).has_value(); }
  /// build(source, options) on the background thread (runtime/background_builds.hpp), ahead
  /// of the builds not yet started there, once per program at a time. A build that fails is only
  /// logged: the caller's own build() raises the error.
  void build_in_background(std::string_view source, std::string_view options);

  /// The key build() files source and options under, in memory and on disk.
  Digest key(std::string_view source, std::string_view options);
  /// The backend's name, the folder of its entries in the disk cache.
  std::string_view backend() const noexcept { return compiler_.backend(); }

  /// Drops the programs built so far (a device does before its context goes).
  void clear() { programs_.clear(); }

  /// What the builder has done since it was made, for tests: a repeat build translates nothing.
  struct Counts {
    std::uint64_t device_hashes = 0;  // hash_device calls: at most one
    std::uint64_t translations = 0;
    std::uint64_t compiles = 0;
    std::uint64_t prebuilt = 0;  // programs loaded from prebuilt payloads
  };
  Counts counts() const noexcept;

 private:
  Digest key_of(const std::vector<std::string>& flags, std::string_view source, std::string_view options);
  CompiledProgram compile(const Digest& key, const TranslatedSource& translated,
                          const std::vector<std::string>& flags, std::string_view source);
  std::shared_ptr<ProgramImpl> start_prebuilt(const Digest& key, std::unique_ptr<TranslatedSource>& translated,
                                              const std::vector<std::string>& flags, std::string_view source);

  ProgramCompiler& compiler_;
  std::once_flag base_once_;
  Hasher base_;  // what every key of the device shares, once hashed
  ProgramTable<ProgramImpl> programs_;
  std::atomic<std::uint64_t> device_hashes_{0};
  std::atomic<std::uint64_t> translations_{0};
  std::atomic<std::uint64_t> compiles_{0};
  std::atomic<std::uint64_t> prebuilt_{0};
  std::mutex pending_mutex_;
  std::vector<Digest> pending_;  // programs build_in_background has queued and not built yet
};

}  // namespace weft::detail
