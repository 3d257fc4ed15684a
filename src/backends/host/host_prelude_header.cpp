#include "backends/host/host_prelude_header.hpp"

#include "core/log.hpp"
#include "core/process.hpp"
#include "dialect/prelude.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

// GCC's precompiled headers open with this magic ("gpch" and a format version).
constexpr std::string_view gch_magic = "gpch";

std::string header_text() { return std::string(host_prelude_text()); }

const std::string header_name(host_prelude_file);

}  // namespace

PreludeHeaders& PreludeHeaders::instance() {
  static PreludeHeaders headers(ProgramCache::instance(), config().host_pch);
  return headers;
}

PreludeHeaders::PreludeHeaders(ProgramCache& cache, bool precompile) : cache_(cache), precompile_(precompile) {}

bool PreludeHeaders::reads_gch(const HostToolchain& tc) {
  // `g++ --version` and `c++ --version` of GCC say "(GCC)" or name the distribution's
  // build; clang's say "clang version". Anything not clang is tried: a .gch that the
  // compiler cannot read is ignored by it (the text header beside it is used).
  return tc.version.find("clang") == std::string::npos;
}

std::vector<std::string> PreludeHeaders::header_flags(const HostToolchain& tc, const std::vector<std::string>& options) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tc.flags.size(); ++i) {
    const std::string& f = tc.flags[i];
    // Linking, not compiling (a -Wl, option would make the driver link the header).
    if (f == "-shared" || f == "-nodefaultlibs" || f.rfind("-Wl,", 0) == 0) continue;
    if (f == "-x" && i + 1 < tc.flags.size()) {
      out.push_back("-x");
      out.push_back("c++-header");
      ++i;
      continue;
    }
    out.push_back(f);
  }
  for (const auto& o : options) {
    // -D macros follow the prelude in the translation; -I paths do not reach it.
    if (o.rfind("-D", 0) != 0 && o.rfind("-I", 0) != 0) out.push_back(o);
  }
  return out;
}

Digest PreludeHeaders::key(const HostToolchain& tc, const std::vector<std::string>& header_flags) {
  Hasher h;
  h.update("weft host prelude .gch 1").update(host_prelude_text());
  h.update(tc.command.empty() ? "" : tc.command[0]).update(tc.version).update(tc.target_cpu);
  for (const auto& f : header_flags) h.update(f);
  return h.finish();
}

std::string PreludeHeaders::build_gch(const HostToolchain& tc, const std::vector<std::string>& flags) const {
  TempDir dir("weft-pch-");
  const std::string header = dir.path() + "/" + header_name;
  const std::string gch = header + ".gch";
  if (!write_file_atomic(header, header_text())) throw Error("cannot write " + header);
  std::vector<std::string> argv = tc.command;
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back(header);
  argv.push_back("-o");
  argv.push_back(gch);
  const ProcessResult r = run_process(argv);
  if (r.exit_code != 0) throw Error("the host prelude does not precompile: " + r.output.substr(0, 2000));
  auto image = read_file(gch);
  if (!image || image->rfind(gch_magic, 0) != 0) throw Error("the compiler wrote no precompiled header to " + gch);
  return std::move(*image);
}

const PreludeHeader& PreludeHeaders::get(const HostToolchain& tc, const std::vector<std::string>& options) {
  const std::vector<std::string> flags = header_flags(tc, options);
  const Digest k = key(tc, flags);
  std::lock_guard lock(mutex_);
  if (auto it = staged_.find(k.hex()); it != staged_.end()) return it->second;
  if (!dir_) dir_ = std::make_unique<TempDir>("weft-prelude-");
  PreludeHeader h;
  h.directory = dir_->path() + "/" + k.hex();
  std::string problem;
  if (!make_private_directories(h.directory, &problem) ||
      !write_file_atomic(h.directory + "/" + header_name, header_text())) {
    throw Error("cannot stage the host prelude in " + h.directory + (problem.empty() ? "" : ": " + problem));
  }
  if (precompile_ && reads_gch(tc)) {
    try {
      bool from_disk = false;
      const std::string gch = cache_.load_or_build(
          "host-pch", k, "host prelude, precompiled", [&] { return build_gch(tc, flags); }, &from_disk);
      // The cache vouches for the bytes (the user's own, unchanged); the magic only keeps an
      // entry of some other kind from being handed to the compiler as a header.
      if (gch.rfind(gch_magic, 0) == 0 &&
          write_file_atomic(h.directory + "/" + header_name + ".gch", gch)) {
        h.precompiled = true;
        h.from_disk = from_disk;
      }
    } catch (const Error& e) {
      WEFT_LOG_WARNING("kernels on host compile without a precompiled prelude (slower): " << e.what());
    }
  }
  WEFT_LOG_DEBUG("host prelude staged in " << h.directory << (h.precompiled ? " (precompiled" : " (text")
                                           << (h.from_disk ? ", from the program cache)" : ")"));
  return staged_.emplace(k.hex(), std::move(h)).first->second;
}

}  // namespace weft::detail
