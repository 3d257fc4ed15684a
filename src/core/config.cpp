#include "weft/config.hpp"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <vector>
#include <charconv>
#include <stdexcept>
#include <string>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

#include "weft/error.hpp"
#include "runtime/spin_wait.hpp"

namespace weft {

namespace {

// The host backend's threads by default: the CPUs this process may run on (its affinity mask: a
// container or taskset may allow fewer than the machine has), less one where there are four or
// more, whose pool threads poll for work (runtime/spin_wait.hpp) and would otherwise leave none
// for the caller's own thread. H200 host, 16 vCPUs (session 25, run BI): cumsum of 10^4 float32
// resident there took 44-86 us with 16 threads in eight processes of eight, 16-24 us with 15 in
// eight of eight; elementwise kernels the same within 10%.
unsigned default_host_threads() {
  const unsigned cpus = std::max(1u, detail::usable_cpus());
  return cpus >= 4 ? cpus - 1 : cpus;  // (four: where polling_pays())
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A switch (WEFT_HOST_PCH and the like), as get(name) reads it: 1 or on, 0 or off, blanks
// around ignored; unset or empty leaves on as it is; anything else is refused, naming the variable and what each value
// means (means: "1 or on (...), 0 or off (...)").
template <class Get>
void read_switch(const Get& get, const char* name, bool& on, const char* means) {
  const std::optional<std::string_view> v = get(name);
  if (!v || trim(*v).empty()) return;
  const std::string_view t = trim(*v);
  if (t == "1" || t == "on") on = true;
  else if (t == "0" || t == "off") on = false;
  else throw ConfigError(std::string(name) + "='" + std::string(*v) + "' is not a switch: expected " + means);
}

std::optional<int> parse_index(std::string_view s) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || value < 0) return std::nullopt;
  return value;
}

[[noreturn]] void bad_selector(std::string_view text, std::string_view why) {
  throw ConfigError("invalid device selector '" + std::string(text) + "': " + std::string(why) +
                    "; valid selectors: " + std::string(DeviceSelector::valid_forms()));
}

}  // namespace

std::string_view to_string(DeviceType t) noexcept {
  switch (t) {
    case DeviceType::cpu: return "cpu";
    case DeviceType::gpu: return "gpu";
    case DeviceType::accelerator: return "accelerator";
    case DeviceType::other: break;
  }
  return "other";
}

std::string_view DeviceSelector::valid_forms() noexcept {
  return "auto, host, opencl, opencl:cpu, opencl:gpu, opencl:accelerator, opencl:P, "
         "opencl:P:D, cuda, cuda:N (P, D, N are indices from `weft devices`), and any of those but auto "
         "followed by /S for sub-device S of its latest partition (opencl:0:0/1)";
}

std::string_view DeviceSelector::backend() const noexcept {
  switch (kind_) {
    case Kind::automatic: return "";
    case Kind::host: return "host";
    case Kind::cuda_any:
    case Kind::cuda_index: return "cuda";
    default: return "opencl";
  }
}

DeviceSelector DeviceSelector::parse(std::string_view raw) {
  std::string_view text = trim(raw);
  if (text.empty()) bad_selector(raw, "it is empty");
  // Sub-devices: "D/S/S..." is the device D and a path of sub-device indices.
  std::vector<int> sub;
  if (const std::size_t slash = text.find('/'); slash != std::string_view::npos) {
    std::string_view path = text.substr(slash + 1);
    text = text.substr(0, slash);
    while (true) {
      const std::size_t next = path.find('/');
      const auto index = parse_index(path.substr(0, next));
      if (!index) bad_selector(raw, "a sub-device is named by a non-negative integer after '/'");
      sub.push_back(*index);
      if (next == std::string_view::npos) break;
      path = path.substr(next + 1);
    }
    if (text == "auto") bad_selector(raw, "'auto' has no sub-devices; name the device (opencl:0:0/1)");
  }
  DeviceSelector s = parse_device(raw, text);
  s.text_ = std::string(trim(raw));
  s.sub_ = std::move(sub);
  return s;
}

DeviceSelector DeviceSelector::parse_device(std::string_view raw, std::string_view text) {
  DeviceSelector s;
  s.text_ = std::string(text);
  if (text.empty()) bad_selector(raw, "it is empty");
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  const std::string_view head = parts[0];
  if (head == "auto" || head == "host") {
    if (parts.size() != 1) {
      // "host:0" is accepted: there is exactly one host device.
      if (!(head == "host" && parts.size() == 2 && parts[1] == "0")) {
        bad_selector(raw, "'" + std::string(head) + "' takes no index");
      }
    }
    s.kind_ = head == "auto" ? Kind::automatic : Kind::host;
    return s;
  }
  if (head == "opencl") {
    if (parts.size() == 1) {
      s.kind_ = Kind::opencl_any;
      return s;
    }
    if (parts.size() == 2) {
      if (parts[1] == "cpu" || parts[1] == "gpu" || parts[1] == "accelerator") {
        s.kind_ = Kind::opencl_type;
        s.type_ = parts[1] == "cpu"   ? DeviceType::cpu
                  : parts[1] == "gpu" ? DeviceType::gpu
                                      : DeviceType::accelerator;
        return s;
      }
      if (auto p = parse_index(parts[1])) {
        s.kind_ = Kind::opencl_platform;
        s.platform_ = *p;
        return s;
      }
      bad_selector(raw, "'" + std::string(parts[1]) +
                            "' is neither a device type (cpu, gpu, accelerator) nor a platform index");
    }
    if (parts.size() == 3) {
      auto p = parse_index(parts[1]);
      auto d = parse_index(parts[2]);
      if (!p || !d) bad_selector(raw, "opencl:P:D needs two non-negative integers");
      s.kind_ = Kind::opencl_index;
      s.platform_ = *p;
      s.index_ = *d;
      return s;
    }
    bad_selector(raw, "too many ':' parts");
  }
  if (head == "cuda") {
    if (parts.size() == 1) {
      s.kind_ = Kind::cuda_any;
      return s;
    }
    if (parts.size() == 2) {
      if (auto n = parse_index(parts[1])) {
        s.kind_ = Kind::cuda_index;
        s.index_ = *n;
        return s;
      }
      bad_selector(raw, "cuda:N needs a non-negative integer N");
    }
    bad_selector(raw, "too many ':' parts");
  }
  bad_selector(raw, "unknown backend '" + std::string(head) + "'");
}

bool Config::backend_allowed(std::string_view backend) const {
  if (backends.empty()) return true;
  for (const auto& b : backends) {
    if (b.backend() == backend) return true;
  }
  return false;
}

bool Config::device_allowed(std::string_view backend, DeviceType type) const {
  if (backends.empty()) return true;
  for (const auto& b : backends) {
    if (b.backend() != backend) continue;
    if (b.kind() == DeviceSelector::Kind::opencl_type && b.type() != type) continue;
    return true;
  }
  return false;
}

namespace {
// "512M", "1.5GiB", "1000000": a byte count, K/M/G/T as powers of 1024.
std::uint64_t parse_bytes(std::string_view text) {
  const std::string_view t = trim(text);
  auto bad = [&] {
    return ConfigError("WEFT_MEMORY_LIMIT='" + std::string(text) +
                       "' is not a memory size: expected bytes, or a number with K, M, G or T "
                       "(powers of 1024, as in 512M or 1.5GiB), more than 0");
  };
  std::size_t end = 0;
  while (end < t.size() && (std::isdigit(static_cast<unsigned char>(t[end])) || t[end] == '.')) ++end;
  if (end == 0) throw bad();
  double number = 0;
  try {
    std::size_t used = 0;
    number = std::stod(std::string(t.substr(0, end)), &used);
    if (used != end) throw bad();
  } catch (const std::logic_error&) {
    throw bad();
  }
  std::string unit(trim(t.substr(end)));
  for (auto& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (unit.ends_with("IB")) unit.erase(unit.size() - 2);
  else if (unit.size() > 1 && unit.ends_with("B")) unit.pop_back();
  else if (unit == "B") unit.clear();
  double scale = 1;
  if (unit == "K") scale = 1024.0;
  else if (unit == "M") scale = 1024.0 * 1024;
  else if (unit == "G") scale = 1024.0 * 1024 * 1024;
  else if (unit == "T") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!unit.empty()) throw bad();
  const double bytes = number * scale;
  if (!(bytes >= 1) || bytes > 1.8e19) throw bad();
  return static_cast<std::uint64_t>(bytes);
}
// The home directory in the password database: a login shell's HOME when the environment
// has none (a daemon, `env -i`, a systemd service); empty when there is none.
std::string password_home() {
  long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buf(static_cast<std::size_t>(size > 0 ? size : 16384));
  struct passwd pw {};
  struct passwd* found = nullptr;
  while (::getpwuid_r(::geteuid(), &pw, buf.data(), buf.size(), &found) == ERANGE && buf.size() < (1u << 20)) {
    buf.resize(buf.size() * 2);
  }
  return found && found->pw_dir ? std::string(found->pw_dir) : std::string();
}

// "60", "0.5": seconds, from 0 (do not wait) to a day.
std::chrono::milliseconds parse_seconds(const char* name, std::string_view text) {
  const std::string t(trim(text));
  double seconds = -1;
  try {
    std::size_t used = 0;
    seconds = std::stod(t, &used);
    if (used != t.size() || t.find_first_not_of("0123456789.") != std::string::npos) seconds = -1;
  } catch (const std::logic_error&) {
    seconds = -1;
  }
  if (!(seconds >= 0 && seconds <= 86400)) {
    throw ConfigError(std::string(name) + "='" + std::string(text) +
                      "' is not a time: expected seconds, a number from 0 to 86400 (as in 60 or 0.5)");
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000 + 0.5));
}
}  // namespace

Config Config::parse(const std::function<const char*(const char*)>& getenv,
                     const std::function<std::string()>& user_home) {
  Config c;
  auto get = [&](const char* name) -> std::optional<std::string_view> {
    const char* v = getenv(name);
    if (!v) return std::nullopt;
    return std::string_view(v);
  };

  if (auto v = get("WEFT_DEVICE"); v && !trim(*v).empty()) {
    try {
      c.device = DeviceSelector::parse(*v);
      c.device_automatic = c.device.kind() == DeviceSelector::Kind::automatic;
    } catch (const ConfigError& e) {
      throw ConfigError(std::string("WEFT_DEVICE: ") + e.what());
    }
  }

  if (auto v = get("WEFT_BACKENDS"); v && !trim(*v).empty()) {
    std::string_view rest = *v;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string_view item = trim(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      const bool ok = item == "host" || item == "opencl" || item == "opencl:cpu" ||
                      item == "opencl:gpu" || item == "opencl:accelerator" || item == "cuda";
      if (!ok) {
        throw ConfigError("WEFT_BACKENDS='" + std::string(*v) + "': unknown entry '" +
                          std::string(item) +
                          "'; valid entries: host, opencl, opencl:cpu, opencl:gpu, "
                          "opencl:accelerator, cuda (comma-separated)");
      }
      c.backends.push_back(DeviceSelector::parse(item));
    }
  }

  // The cache holds code weft loads and runs, so it is never a path shared with other
  // users (a fixed /tmp name could be made first by anyone): without a home directory there
  // is no disk cache at all (an empty cache_dir; the cache warns once).
  const auto absolute = [](std::optional<std::string_view> v) { return v && !v->empty() && v->front() == '/'; };
  if (auto v = get("WEFT_CACHE_DIR"); v && !trim(*v).empty()) {
    c.cache_dir = std::string(trim(*v));
  } else if (auto x = get("XDG_CACHE_HOME"); absolute(x)) {
    c.cache_dir = std::string(*x) + "/weft";
  } else if (auto h = get("HOME"); absolute(h)) {
    c.cache_dir = std::string(*h) + "/.cache/weft";
  } else if (const std::string home = user_home ? user_home() : password_home(); !home.empty() && home.front() == '/') {
    c.cache_dir = home + "/.cache/weft";
  } else {
    c.cache_dir.clear();
  }

  if (auto v = get("WEFT_CACHE_LOCK_TIMEOUT"); v && !trim(*v).empty()) {
    c.cache_lock_timeout = parse_seconds("WEFT_CACHE_LOCK_TIMEOUT", *v);
  }

  c.temp_dir = "/tmp";
  if (auto v = get("TMPDIR"); v && !v->empty()) {
    if (v->front() != '/') {
      throw ConfigError("TMPDIR='" + std::string(*v) +
                        "' is not an absolute path: set it to an absolute directory, or unset it for /tmp");
    }
    c.temp_dir = std::string(*v);
    while (c.temp_dir.size() > 1 && c.temp_dir.back() == '/') c.temp_dir.pop_back();
  }

  if (auto v = get("PYTHONPATH")) c.python_path = std::string(*v);

  c.num_threads = default_host_threads();
  if (auto v = get("WEFT_NUM_THREADS"); v && !trim(*v).empty()) {
    const std::string_view t = trim(*v);
    unsigned n = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    if (ec != std::errc() || ptr != t.data() + t.size() || n == 0 || n > 4096) {
      throw ConfigError("WEFT_NUM_THREADS='" + std::string(*v) +
                        "' is not a thread count: expected an integer from 1 to 4096");
    }
    c.num_threads = n;
  }

  c.cxx = "c++";
  if (auto v = get("WEFT_CXX"); v && !trim(*v).empty()) c.cxx = std::string(trim(*v));

  if (auto v = get("WEFT_LOG"); v && !trim(*v).empty()) {
    const std::string_view t = trim(*v);
    if (t == "off" || t == "none" || t == "0") c.log_level = LogLevel::off;
    else if (t == "error") c.log_level = LogLevel::error;
    else if (t == "warning" || t == "warn") c.log_level = LogLevel::warning;
    else if (t == "info") c.log_level = LogLevel::info;
    else if (t == "debug" || t == "1") c.log_level = LogLevel::debug;
    else {
      throw ConfigError("WEFT_LOG='" + std::string(*v) +
                        "' is not a log level: expected off, error, warning, info or debug");
    }
  }

  if (auto v = get("WEFT_MEMORY_LIMIT"); v && !trim(*v).empty()) {
    c.memory_limit = parse_bytes(*v);
  }

  read_switch(get, "WEFT_OPENCL_PTX", c.opencl_ptx,
              "1 or on (inline PTX on NVIDIA's OpenCL, the default), 0 or off (plain OpenCL C)");

  read_switch(get, "WEFT_HOST_PCH", c.host_pch,
              "1 or on (the host prelude precompiled, the default), 0 or off (parsed in every compile)");

  read_switch(get, "WEFT_HOST_PREBUILT", c.host_prebuilt,
              "1 or on (new array expressions on host start on the kernels the library ships prebuilt, the "
              "default), 0 or off (every new kernel is compiled before it runs)");

  read_switch(get, "WEFT_PLACEMENT_CHAINS", c.placement_chains,
              "1 or on (device auto decides an operation that began a chain before over the operations that "
              "followed it, the default), 0 or off (each operation alone)");

  read_switch(get, "WEFT_PLACEMENT_LEARN", c.placement_learn,
              "1 or on (device auto also learns from timed runs), 0 or off (it decides from the calibrated "
              "model alone, the default)");

  read_switch(get, "WEFT_BOUNDS_CHECK", c.bounds_check,
              "0 or off (no bounds checks, the default), 1 or on (every kernel's buffer accesses checked)");

  if (auto v = get("WEFT_STAGING"); v && !trim(*v).empty()) {
    const std::string_view t = trim(*v);
    const auto comma = t.find(',');
    auto number = [](std::string_view part, unsigned long lo, unsigned long hi) -> unsigned long {
      part = trim(part);
      if (part.empty() || part.size() > 4 ||
          !std::all_of(part.begin(), part.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
        return 0;
      }
      const unsigned long n = std::stoul(std::string(part));
      return n >= lo && n <= hi ? n : 0;
    };
    const unsigned long chunk = comma == std::string_view::npos ? 0 : number(t.substr(0, comma), 1, 256);
    const unsigned long threads = comma == std::string_view::npos ? 0 : number(t.substr(comma + 1), 1, 64);
    if (chunk == 0 || threads == 0) {
      throw ConfigError("WEFT_STAGING='" + std::string(*v) + "' is not CHUNK_MIB,THREADS: expected the largest "
                        "staging chunk in MiB (1 to 256) and the memcpy threads (1 to 64), as in 16,12");
    }
    c.staging_chunk_bytes = static_cast<std::size_t>(chunk) << 20;
    c.staging_threads = static_cast<unsigned>(threads);
  }

  read_switch(get, "WEFT_STAGING_TRACE", c.staging_trace,
              "0 or off (no trace, the default), 1 or on (staged copies' timelines printed to stderr at "
              "exit)");

  // An empty PATH entry is the current directory (as execvp takes it), so PATH is kept as is.
  const auto path = get("PATH");
  c.path = path ? std::string(*path) : "/usr/local/bin:/usr/bin:/bin";
  return c;
}

const Config& config() {
  // Parsed once; a malformed value throws here on every call, so each entry point reports it.
  static const std::optional<Config> parsed = []() -> std::optional<Config> {
    try {
      return Config::parse([](const char* n) { return std::getenv(n); });
    } catch (const ConfigError&) {
      return std::nullopt;
    }
  }();
  if (!parsed) Config::parse([](const char* n) { return std::getenv(n); });  // rethrows
  return *parsed;
}

}  // namespace weft
