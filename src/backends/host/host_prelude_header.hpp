// The host prelude as a header file and, where the compiler is GCC, its precompiled form.
//
// The host translation opens with `#include "weft_host_prelude.hpp"` (dialect/host_translate.cpp);
// every compile puts a directory holding that file first on its include path. Parsing the
// prelude is a fixed part of every kernel's build (docs/PERFORMANCE_DETAILS.md, "first result"), so
// GCC gets it precompiled: weft_host_prelude.hpp.gch beside the header, which GCC takes
// instead of the text when it was made by the same compiler with the same flags.
//
// The .gch is built once per compiler, flags, CPU and prelude text, and kept in the program
// cache as an entry of its own folder (host-pch), so it has every entry's protections
// (docs/SECURITY.md): owned by the user and writable by nobody else, or refused; checksummed,
// a corrupt one removed and rebuilt; built under the entry's lock. GCC reads a path, not an
// open file, so weft never points it into the cache: the checked bytes are copied into a
// private directory of this process (0700, removed at exit) and GCC reads them there.
//
//   PreludeHeaders headers(ProgramCache::instance(), true);
//   const PreludeHeader& h = headers.get(HostToolchain::get(), {"-ffast-math"});
//   argv.push_back("-I" + h.directory);   // h.precompiled: the .gch is there
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/host/host_api.hpp"
#include "cache/program_cache.hpp"
#include "core/files.hpp"
#include "core/hash.hpp"

namespace weft::detail {

struct PreludeHeader {
  std::string directory;     // holds host_prelude_file (dialect/prelude.hpp), and its .gch when precompiled
  bool precompiled = false;  // a checked .gch stands beside the header
  bool from_disk = false;    // the .gch came from the program cache, not built by this process
};

class PreludeHeaders {
 public:
  /// The process's headers: the program cache at config().cache_dir, precompiled unless
  /// WEFT_HOST_PCH=0.
  static PreludeHeaders& instance();

  /// precompile false: the plain header only (WEFT_HOST_PCH=0, or a compiler without GCC's
  /// precompiled headers).
  PreludeHeaders(ProgramCache& cache, bool precompile);

  /// The staged header for compiles with the toolchain's flags plus options (the user's
  /// mapped build options; -D and -I ones do not change the prelude and are ignored).
  /// Staged once per distinct set; a .gch that cannot be built leaves the plain header.
  const PreludeHeader& get(const HostToolchain& tc, const std::vector<std::string>& options);

  /// The flags a .gch for these compiles is built with (the compile's own, as a header).
  static std::vector<std::string> header_flags(const HostToolchain& tc, const std::vector<std::string>& options);
  /// The program-cache key of that .gch.
  static Digest key(const HostToolchain& tc, const std::vector<std::string>& header_flags);
  /// True when the toolchain reads GCC's .gch files (GCC itself; clang does not look for them
  /// behind an #include).
  static bool reads_gch(const HostToolchain& tc);

 private:
  std::string build_gch(const HostToolchain& tc, const std::vector<std::string>& flags) const;

  ProgramCache& cache_;
  bool precompile_;
  std::mutex mutex_;
  std::unique_ptr<TempDir> dir_;  // made on first use
  std::map<std::string, PreludeHeader> staged_;  // by key
};

}  // namespace weft::detail
