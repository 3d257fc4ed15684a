// The `weft` command: devices, the program cache, benchmarks, polygon masks.
//
//   weft version
//   weft devices [--json] [--costs]
//   weft calibrate [--quick] [--device SELECTOR]... [--json]
//   weft cache path | list | clear | prune [--older-than DAYS] [--max-size MB]
//   weft bench [SUITE...] [--device SEL[,SEL...]] [--n N] [--repeat R] [--warmup W] [--json FILE]
//              [--plot FILE.png] [--compare] [--peers DIR] [--python PROGRAM]
//   weft polygon --size WxH (--vertices N [--seed S] | --vertices-file FILE) [--device D]
//                [--out FILE.npy] [--png FILE]
//   weft polygon ... (--dask | --workers N | --scheduler ADDR) [--tile N|HxW] [--python PROGRAM]  (tiles, Dask)
//   weft help [COMMAND], weft --help, weft COMMAND --help   (the text is in help.cpp)
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "bench/harness.hpp"
#include "tools/calibrate.hpp"
#include "tools/help.hpp"
#include "tools/support/files.hpp"
#include "tools/support/json.hpp"
#include "tools/support/npy.hpp"
#include "tools/support/numbers.hpp"
#include "tools/support/png.hpp"
#include "weft/weft.hpp"

namespace {

using weft::tool::UsageError;

std::string human_bytes(std::uint64_t n) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1);
  if (n >= (1ull << 40)) os << static_cast<double>(n) / static_cast<double>(1ull << 40) << " TiB";
  else if (n >= (1ull << 30)) os << static_cast<double>(n) / static_cast<double>(1ull << 30) << " GiB";
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
  bool json = false, costs = false;
  for (const auto& a : args) {
    if (a == "--json") json = true;
    else if (a == "--costs") costs = true;
    else throw UsageError("unknown option '" + a + "'; devices takes --json and --costs");
  }
  if (costs) return weft::tool::print_costs(json);
  const auto& backends = weft::backends();
  if (json) {
    weft::tool::JsonWriter w;
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
        const weft::DeviceCapabilities& c = i.capabilities;
        w.key("capabilities").begin_object();
        w.key("has_barriers").value(c.has_barriers);
        w.key("memory_is_host").value(c.memory_is_host);
        w.key("addressable_memory").value(c.addressable_memory);
        w.key("prefers_row_kernels").value(c.prefers_row_kernels);
        w.key("native_ptx").value(c.native_ptx);
        w.key("inline_ptx").value(c.inline_ptx);
        w.key("native_api").value(c.native_api);
        w.key("dlpack_device_type").value(c.dlpack_device_type);
        w.key("dlpack_device_id").value(c.dlpack_device_id);
        w.end_object();
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
  if (args.empty()) throw UsageError("expected path, list, clear or prune");
  const std::string& sub = args[0];
  if (weft::cache_directory().empty()) {
    throw weft::Error("weft cache: there is no disk cache: neither WEFT_CACHE_DIR, XDG_CACHE_HOME nor HOME is set "
                      "and the user has no home directory");
  }
  if (sub == "path") {
    std::cout << weft::cache_directory() << "\n";
  } else if (sub == "list") {
    const auto entries = weft::list_cache_entries();
    std::uint64_t total = 0;
    for (const auto& e : entries) {
      total += e.bytes;
      char when[32] = "?";
      const std::time_t t = e.modified;
      if (std::tm tm{}; localtime_r(&t, &tm)) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
      std::cout << std::left << std::setw(10) << e.backend << std::setw(34) << e.key << std::right
                << std::setw(11) << human_bytes(e.bytes) << "  " << when << "  "
                << (e.valid ? e.description : "INVALID: " + e.problem) << "\n";
    }
    std::cout << entries.size() << " entries, " << human_bytes(total) << " in " << weft::cache_directory() << "\n";
  } else if (sub == "clear") {
    const auto n = weft::clear_cache();
    std::cout << "removed " << n << " entries from " << weft::cache_directory() << "\n";
  } else if (sub == "prune") {
    std::optional<std::chrono::seconds> age;
    std::optional<std::uint64_t> size;
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a != "--older-than" && a != "--max-size") {
        throw UsageError("unknown option '" + a + "'; prune takes --older-than DAYS and --max-size MB");
      }
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      // A century of days and a mebibyte of mebibytes: far past any cache, well inside the
      // integer types they become.
      if (a == "--older-than") {
        age = std::chrono::seconds(std::llround(weft::tool::parse_number(a, args[++i], 0, 36500) * 86400));
      } else {
        size = static_cast<std::uint64_t>(
            std::llround(weft::tool::parse_number(a, args[++i], 0, 1024.0 * 1024 * 1024) * 1024 * 1024));
      }
    }
    const auto n = weft::prune_cache(age, size);
    std::cout << "pruned " << n << " entries from " << weft::cache_directory() << "\n";
  } else {
    throw UsageError("unknown subcommand '" + sub + "'; expected path, list, clear or prune");
  }
  return 0;
}

// This machine's memory, for refusing outputs that could never fit (0 when unknown).
std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

void check_fits_in_memory(const std::string& what, std::uint64_t bytes) {
  const std::uint64_t memory = physical_memory();
  if (memory != 0 && bytes > memory) {
    throw UsageError(what + " needs " + human_bytes(bytes) + " of memory; this machine has " + human_bytes(memory));
  }
}

int cmd_bench(const std::vector<std::string>& args) {
  using weft::tool::parse_count;
  weft::bench::Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    // --n up to 2^40 elements; a million rounds is more than any run can wait for.
    if (a == "--device") o.device = next();
    else if (a == "--n") o.n = parse_count(a, next(), 1, std::uint64_t{1} << 40);
    else if (a == "--repeat") o.repeat = static_cast<int>(parse_count(a, next(), 1, 1000000));
    else if (a == "--warmup") o.warmup = static_cast<int>(parse_count(a, next(), 0, 1000000));
    else if (a == "--json") o.json_path = next();
    else if (a == "--plot") o.plot_path = next();
    else if (a == "--compare") o.compare = true;
    else if (a == "--peers") o.peers_dir = next();
    else if (a == "--python") o.python = next();
    else if (!a.empty() && a[0] == '-') throw UsageError("unknown option '" + a + "' (see weft bench --help)");
    else o.suites.push_back(a);
  }
  return weft::bench::run_bench(o);
}

// The library's own limit on a side (polygon_mask refuses larger).
constexpr std::uint64_t max_side = std::uint64_t{1} << 30;

// --size WxH: two whole numbers, each side at most max_side, the mask within memory.
std::pair<std::size_t, std::size_t> parse_size(const std::string& v) {
  const auto bad = [&] {
    return UsageError("--size needs WIDTHxHEIGHT, each a whole number from 1 to " + weft::tool::describe_count(max_side) +
                      " (e.g. 1024x768), got '" + v + "'");
  };
  const auto x = v.find('x');
  if (x == std::string::npos) throw bad();
  std::uint64_t width = 0, height = 0;
  try {
    width = weft::tool::parse_integer("--size", v.substr(0, x), 1, max_side);
    height = weft::tool::parse_integer("--size", v.substr(x + 1), 1, max_side);
  } catch (const UsageError&) {
    throw bad();
  }
  // Both at most 2^30: the product cannot wrap.
  check_fits_in_memory("--size " + v + " (" + std::to_string(width * height) + " pixels)", width * height);
  return {static_cast<std::size_t>(width), static_cast<std::size_t>(height)};
}

// One "x y" pair a line (a comma may separate them); blank lines and text after '#' are
// ignored. A line that is not two finite numbers is named in the error.
// The file may be a pipe; it is read whole, at most vertices_file_cap bytes of it.
constexpr std::size_t vertices_file_cap = std::size_t{256} << 20;

std::vector<weft::Point> read_vertices_file(const std::string& path) {
  std::istringstream in(weft::tool::read_input_file(path, vertices_file_cap, "--vertices-file"));
  std::vector<weft::Point> v;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    std::string text = line.substr(0, line.find('#'));
    std::replace(text.begin(), text.end(), ',', ' ');
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const char* p = text.c_str();
    char* end = nullptr;
    const double x = std::strtod(p, &end);
    const bool got_x = end != p;
    p = end;
    const double y = got_x ? std::strtod(p, &end) : 0.0;
    const bool got_y = got_x && end != p;
    const bool rest_blank = got_y && std::string(end).find_first_not_of(" \t\r") == std::string::npos;
    if (!rest_blank || !std::isfinite(x) || !std::isfinite(y)) {
      throw weft::InvalidArgument("--vertices-file " + path + ":" + std::to_string(number) +
                                  ": expected two finite numbers \"x y\", got '" + line + "'");
    }
    v.push_back({x, y});
  }
  if (v.empty()) throw weft::InvalidArgument("--vertices-file " + path + " holds no vertices");
  return v;
}

// The mask as a palette PNG with the polygon's outline and vertices drawn over it. Edges are
// clipped to the image first (Liang-Barsky), so far-away vertices cost nothing, then
// stepped one pixel at a time.
std::string mask_png(const weft::Mask& m, const std::vector<weft::Point>& vertices) {
  enum : std::uint8_t { outside, inside, outline, corner };
  const weft::tool::Rgb palette[] = {{24, 28, 38}, {96, 156, 222}, {236, 72, 56}, {255, 214, 0}};
  std::vector<std::uint8_t> px(m.data.size());
  for (std::size_t i = 0; i < px.size(); ++i) px[i] = m.data[i] ? inside : outside;
  const double w = static_cast<double>(m.width), h = static_cast<double>(m.height);
  const auto plot = [&](double x, double y, std::uint8_t colour) {
    const double rx = std::round(x), ry = std::round(y);
    if (rx >= 0 && ry >= 0 && rx < w && ry < h) {
      px[static_cast<std::size_t>(ry) * m.width + static_cast<std::size_t>(rx)] = colour;
    }
  };
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const weft::Point a = vertices[i], b = vertices[(i + 1) % vertices.size()];
    double t0 = 0, t1 = 1;
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double p[] = {-dx, dx, -dy, dy};
    const double q[] = {a.x + 0.5, w - 0.5 - a.x, a.y + 0.5, h - 0.5 - a.y};
    bool visible = true;
    for (int k = 0; k < 4 && visible; ++k) {
      if (p[k] == 0) {
        visible = q[k] >= 0;
      } else {
        const double t = q[k] / p[k];
        if (p[k] < 0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
        visible = t0 <= t1;
      }
    }
    if (!visible) continue;
    const double x0 = a.x + t0 * dx, y0 = a.y + t0 * dy, x1 = a.x + t1 * dx, y1 = a.y + t1 * dy;
    const double steps = std::ceil(std::max(std::abs(x1 - x0), std::abs(y1 - y0)));
    for (double s = 0; s <= steps; ++s) {
      const double f = steps > 0 ? s / steps : 0.0;
      plot(x0 + f * (x1 - x0), y0 + f * (y1 - y0), outline);
    }
  }
  // Vertices a little larger than a pixel on large images, so they can be seen.
  const int r = std::min(m.width, m.height) >= 256 ? 1 : 0;
  for (const auto& v : vertices) {
    for (int dy = -r; dy <= r; ++dy) {
      for (int dx = -r; dx <= r; ++dx) plot(v.x + dx, v.y + dy, corner);
    }
  }
  return weft::tool::png_palette_bytes(m.width, m.height, px, palette);
}

// weft polygon --dask / --workers N / --scheduler ADDRESS: the mask in tiles over a Dask
// cluster, computed by the Python package's weft.dask_polygon: this process becomes
// `PROGRAM -m weft.dask_polygon ARGS` (PROGRAM python3 unless --python names one). When this
// program lies inside the package (weft/bin/weft), the package's folder goes first on
// PYTHONPATH, so that the same weft is imported.
int exec_tiled_polygon(const std::vector<std::string>& args) {
  std::string python = "python3";
  std::vector<std::string> argv{"", "-m", "weft.dask_polygon"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--python") {
      argv.push_back(args[i]);
    } else if (i + 1 < args.size()) {
      python = args[++i];
    } else {
      throw UsageError("--python needs a value");
    }
  }
  argv[0] = python;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.parent_path().filename() == "bin" &&
      std::filesystem::exists(exe.parent_path().parent_path() / "__init__.py")) {
    const std::string root = exe.parent_path().parent_path().parent_path().string();
    // (Python's own search path, handed on to the child Python, weft's package first)
    const std::string& old = weft::config().python_path;
    const std::string path = old.empty() ? root : root + ":" + old;
    ::setenv("PYTHONPATH", path.c_str(), 1);
  }
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::cout.flush();
  ::execvp(cargv[0], cargv.data());
  throw weft::Error("weft polygon --workers/--dask/--scheduler runs '" + python +
                    " -m weft.dask_polygon', which could not be started (" + std::strerror(errno) +
                    "); give --python PROGRAM, a Python with weft and Dask");
}

int cmd_polygon(const std::vector<std::string>& args) {
  const auto tiled = [](const std::string& a) { return a == "--dask" || a == "--workers" || a == "--scheduler"; };
  if (std::any_of(args.begin(), args.end(), tiled)) return exec_tiled_polygon(args);
  std::optional<std::pair<std::size_t, std::size_t>> size;
  std::optional<std::size_t> count;
  std::uint64_t seed = 0;
  std::string file, selector, out, png;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--size") {
      size = parse_size(next());
    } else if (a == "--vertices") {
      // The library's limit (2^28), and the vertices must fit in memory.
      const std::uint64_t n = weft::tool::parse_count(a, next(), 1, std::uint64_t{1} << 28);
      check_fits_in_memory("--vertices " + std::to_string(n), n * sizeof(weft::Point));
      count = static_cast<std::size_t>(n);
    } else if (a == "--seed") {
      seed = weft::tool::parse_integer(a, next(), 0, std::numeric_limits<std::uint64_t>::max());
    } else if (a == "--vertices-file") {
      file = next();
    } else if (a == "--device") {
      selector = next();
    } else if (a == "--out") {
      out = next();
    } else if (a == "--png") {
      png = next();
    } else if (a == "--tile" || a == "--python") {
      throw UsageError(a + " applies to a tiled mask only: add --workers N, --dask or --scheduler ADDRESS");
    } else {
      throw UsageError("unknown option '" + a + "' (see weft polygon --help)");
    }
  }
  if (!size) throw UsageError("--size WxH is required");
  if (count.has_value() == !file.empty()) {
    throw UsageError("give either --vertices N (random, with --seed S) or --vertices-file FILE");
  }
  const auto [width, height] = *size;
  const std::vector<weft::Point> vertices =
      count ? weft::random_polygon(*count, seed, width, height) : read_vertices_file(file);

  const weft::Device dev = selector.empty() ? weft::default_device() : weft::device(selector);
  weft::Queue q(dev, weft::QueueOptions{.profiling = true});  // the kernel time printed below
  weft::Buffer dmask(dev, width * height);
  const weft::Event done = weft::enqueue_polygon_mask(q, vertices, height, width, dmask);
  weft::Mask m{height, width, std::vector<std::uint8_t>(width * height)};
  const weft::Event wait[] = {done};
  q.read(dmask, m.data.data(), m.data.size(), 0, weft::Blocking::yes, wait);
  std::size_t inside = 0;
  for (const auto v : m.data) inside += v != 0;

  if (!out.empty()) {
    const auto shape = weft::Shape{static_cast<std::int64_t>(height), static_cast<std::int64_t>(width)};
    weft::tool::write_output_file(out, weft::tool::npy_bytes(weft::DType::uint8, shape, m.data.data()));
  }
  if (!png.empty()) weft::tool::write_output_file(png, mask_png(m, vertices));
  std::cout << "polygon: " << vertices.size() << " vertices, " << width << "x" << height << " on "
            << dev.selector() << ": " << inside << " of " << m.data.size() << " pixels inside ("
            << std::fixed << std::setprecision(1)
            << 100.0 * static_cast<double>(inside) / static_cast<double>(m.data.size()) << "%), kernel "
            << std::setprecision(3) << done.profile().seconds() * 1e3 << " ms\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << weft::tool::overview_help();
    return 2;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      if (args.empty()) {
        std::cout << weft::tool::overview_help();
        return 0;
      }
      // `weft help --help` is help's own page.
      const std::string name = args[0] == "--help" || args[0] == "-h" ? "help" : args[0];
      if (const auto page = weft::tool::command_help(name)) {
        std::cout << *page;
        return 0;
      }
      throw UsageError("no command '" + args[0] + "'; commands: version devices calibrate cache bench polygon help");
    }
    if (weft::tool::asks_for_help(args)) {
      if (const auto page = weft::tool::command_help(cmd)) {
        std::cout << *page;
        return 0;
      }
    }
    if (cmd == "version" || cmd == "--version") return cmd_version();
    if (cmd == "devices") return cmd_devices(args);
    if (cmd == "cache") return cmd_cache(args);
    if (cmd == "calibrate") return weft::tool::calibrate_command(args);
    if (cmd == "bench") return cmd_bench(args);
    if (cmd == "polygon") return cmd_polygon(args);
    if (cmd == "bench-child" && args.size() == 2 && args[0] == "first-launch") {
      return weft::bench::first_launch_child(args[1]);
    }
    if (cmd == "bench-child" && args.size() == 2 && args[0] == "first-result") {
      return weft::bench::first_result_child(args[1]);
    }
    std::cerr << "weft: unknown command '" << cmd << "'\n" << weft::tool::overview_help();
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "weft " << cmd << ": " << e.what() << "\n";
    return 2;
  } catch (const weft::ConfigError& e) {
    std::cerr << "weft: configuration error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "weft " << cmd << ": out of memory\n";
    return 1;
  } catch (const weft::Error& e) {
    std::cerr << "weft: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "weft: error: " << e.what() << "\n";
    return 1;
  }
}
