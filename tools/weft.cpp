// The `weft` command: devices, the program cache, benchmarks.
//
//   weft version
//   weft devices [--json]
//   weft cache path | list | clear | prune [--older-than DAYS] [--max-size MB]
//   weft bench [SUITE...] [--device SELECTOR] [--n N] [--repeat R] [--json FILE] [--compare]
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/harness.hpp"
#include "cache/program_cache.hpp"
#include "core/json.hpp"
#include "weft/weft.hpp"

namespace {

const char* usage =
    "usage: weft <command> [options]\n"
    "\n"
    "commands:\n"
    "  version                       print weft's version\n"
    "  devices [--json]              list every backend and device\n"
    "  cache path|list|clear|prune   the on-disk program cache\n"
    "        prune [--older-than DAYS] [--max-size MB]\n"
    "  bench [SUITE...] [--device SELECTOR] [--n N] [--repeat R] [--json FILE] [--compare]\n"
    "                                run benchmark suites (all of them when none is named)\n"
    "  help                          this text\n";

std::string human_bytes(std::uint64_t n) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1);
  if (n >= (1ull << 30)) os << static_cast<double>(n) / static_cast<double>(1ull << 30) << " GiB";
  else if (n >= (1ull << 20)) os << static_cast<double>(n) / static_cast<double>(1ull << 20) << " MiB";
  else if (n >= (1ull << 10)) os << static_cast<double>(n) / static_cast<double>(1ull << 10) << " KiB";
  else os << n << " B";
  return os.str();
}

int cmd_version() {
  std::cout << "weft " << weft::version_string << "\n";
  return 0;
}

int cmd_devices(const std::vector<std::string>& args) {
  bool json = false;
  for (const auto& a : args) {
    if (a == "--json") json = true;
    else throw weft::InvalidArgument("weft devices: unknown option '" + a + "'");
  }
  const auto& backends = weft::backends();
  if (json) {
    weft::detail::JsonWriter w;
    w.begin_array();
    for (const auto& b : backends) {
      for (const auto& d : b.devices) {
        const auto& i = d.info();
        w.begin_object();
        w.key("selector").value(i.selector);
        w.key("backend").value(i.backend);
        w.key("name").value(i.name);
        w.key("vendor").value(i.vendor);
        w.key("type").value(weft::to_string(i.type));
        w.key("compute_units").value(i.compute_units);
        w.key("global_mem_bytes").value(static_cast<unsigned long long>(i.global_mem_bytes));
        w.key("local_mem_bytes").value(static_cast<unsigned long long>(i.local_mem_bytes));
        w.key("max_work_group_size").value(static_cast<unsigned long long>(i.max_work_group_size));
        w.key("platform").value(i.platform);
        w.key("driver_version").value(i.driver_version);
        w.key("fp16").value(i.fp16);
        w.key("fp64").value(i.fp64);
        w.end_object();
      }
    }
    w.end_array();
    std::cout << w.str() << "\n";
    return 0;
  }
  std::cout << std::left << std::setw(14) << "selector" << std::setw(8) << "type" << std::setw(44)
            << "name" << std::right << std::setw(6) << "units" << std::setw(12) << "memory"
            << std::setw(10) << "max wg" << "\n";
  for (const auto& b : backends) {
    if (b.devices.empty()) {
      std::cout << b.name << ": " << b.reason << "\n";
      continue;
    }
    for (const auto& d : b.devices) {
      const auto& i = d.info();
      std::string name = i.name.size() > 42 ? i.name.substr(0, 41) + "~" : i.name;
      std::cout << std::left << std::setw(14) << i.selector << std::setw(8) << weft::to_string(i.type)
                << std::setw(44) << name << std::right << std::setw(6) << i.compute_units
                << std::setw(12) << human_bytes(i.global_mem_bytes) << std::setw(10)
                << i.max_work_group_size << "\n";
    }
  }
  return 0;
}

int cmd_cache(const std::vector<std::string>& args) {
  if (args.empty()) throw weft::InvalidArgument("weft cache: expected path, list, clear or prune");
  auto& cache = weft::detail::ProgramCache::instance();
  const std::string& sub = args[0];
  if (sub == "path") {
    std::cout << cache.directory() << "\n";
  } else if (sub == "list") {
    const auto entries = cache.list();
    std::uint64_t total = 0;
    for (const auto& e : entries) {
      total += e.bytes;
      char when[32] = "?";
      const std::time_t t = e.modified;
      if (std::tm tm{}; localtime_r(&t, &tm)) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
      std::cout << std::left << std::setw(8) << e.backend << std::setw(34) << e.key << std::right
                << std::setw(11) << human_bytes(e.bytes) << "  " << when << "  "
                << (e.valid ? e.description : "INVALID: " + e.problem) << "\n";
    }
    std::cout << entries.size() << " entries, " << human_bytes(total) << " in " << cache.directory() << "\n";
  } else if (sub == "clear") {
    const auto n = cache.clear();
    std::cout << "removed " << n << " entries from " << cache.directory() << "\n";
  } else if (sub == "prune") {
    std::optional<std::chrono::seconds> age;
    std::optional<std::uint64_t> size;
    for (std::size_t i = 1; i < args.size(); ++i) {
      if ((args[i] == "--older-than" || args[i] == "--max-size") && i + 1 < args.size()) {
        char* end = nullptr;
        const double v = std::strtod(args[i + 1].c_str(), &end);
        if (!end || *end || v < 0) {
          throw weft::InvalidArgument("weft cache prune: " + args[i] + " needs a non-negative number, got '" +
                                      args[i + 1] + "'");
        }
        if (args[i] == "--older-than") age = std::chrono::seconds(static_cast<long long>(v * 86400));
        else size = static_cast<std::uint64_t>(v * 1024 * 1024);
        ++i;
      } else {
        throw weft::InvalidArgument("weft cache prune: unknown option '" + args[i] + "'");
      }
    }
    const auto n = cache.prune(age, size);
    std::cout << "pruned " << n << " entries from " << cache.directory() << "\n";
  } else {
    throw weft::InvalidArgument("weft cache: unknown subcommand '" + sub + "'; expected path, list, clear or prune");
  }
  return 0;
}

std::size_t parse_count(const std::string& opt, const std::string& v) {
  // Accepts 1000, 1e6 and 2^24.
  std::size_t n = 0;
  if (auto caret = v.find('^'); caret != std::string::npos) {
    const double base = std::stod(v.substr(0, caret));
    const double exp = std::stod(v.substr(caret + 1));
    n = static_cast<std::size_t>(std::pow(base, exp));
  } else {
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (!end || *end || d < 1) throw weft::InvalidArgument(opt + " needs a positive count, got '" + v + "'");
    n = static_cast<std::size_t>(d);
  }
  if (n == 0) throw weft::InvalidArgument(opt + " needs a positive count, got '" + v + "'");
  return n;
}

int cmd_bench(const std::vector<std::string>& args) {
  weft::bench::Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw weft::InvalidArgument("weft bench: " + a + " needs a value");
      return args[++i];
    };
    if (a == "--device") o.device = next();
    else if (a == "--n") o.n = parse_count(a, next());
    else if (a == "--repeat") o.repeat = static_cast<int>(parse_count(a, next()));
    else if (a == "--warmup") o.warmup = static_cast<int>(std::stoi(next()));
    else if (a == "--json") o.json_path = next();
    else if (a == "--compare") o.compare = true;
    else if (!a.empty() && a[0] == '-') throw weft::InvalidArgument("weft bench: unknown option '" + a + "'");
    else o.suites.push_back(a);
  }
  return weft::bench::run_bench(o);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << usage;
    return 2;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "version" || cmd == "--version") return cmd_version();
    if (cmd == "devices") return cmd_devices(args);
    if (cmd == "cache") return cmd_cache(args);
    if (cmd == "bench") return cmd_bench(args);
    if (cmd == "bench-child" && args.size() == 2 && args[0] == "first-launch") {
      return weft::bench::first_launch_child(args[1]);
    }
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      std::cout << usage;
      return 0;
    }
    std::cerr << "weft: unknown command '" << cmd << "'\n" << usage;
    return 2;
  } catch (const weft::ConfigError& e) {
    std::cerr << "weft: configuration error: " << e.what() << "\n";
    return 2;
  } catch (const weft::Error& e) {
    std::cerr << "weft: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "weft: error: " << e.what() << "\n";
    return 1;
  }
}
