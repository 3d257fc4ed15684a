// Stored calibrations: one small text file per device identity in `<cache>/placement/`,
// under the program cache's trust rules (src/cache/cache_directory.hpp, docs/SECURITY.md):
// directories 0700 and files 0600 owned by the user, written to a temporary file and renamed,
// never loaded when another user owns or may write them, read without following links and
// size-capped. A file carries its identity and a checksum of its text; a corrupt, truncated
// or foreign file is measured again (with a log line), never trusted.
//
//   weft-costs 12
//   identity host|AMD EPYC 7B13|g++ 12|...|units=2
//   launch_s 2.1e-05
//   ...
//   switch_after 0.00013 opencl:0:0 opencl|NVIDIA H200|NVIDIA CUDA|...|units=132
//   checksum 0123456789abcdef0123456789abcdef
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "cache/cache_directory.hpp"
#include "core/files.hpp"
#include "core/hash.hpp"
#include "core/lifetime.hpp"
#include "core/log.hpp"
#include "placement/costs_file.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"
#include "weft/placement.hpp"

namespace weft {

namespace detail {

namespace {

// Format 3 added the sort rate; format 4 times copies as arrays make them (the latencies and
// rates mean something else, and the small copies' rates are new) and adds the wide launch
// and the math functions' rate; format 5 adds one chunk's math rate, the switch costs after
// each other device and the sort's rate up to sort_small_keys; format 6 adds polygon_mask's
// own overhead and rates; format 7 a tiny sort's time; format 8 the queued launch's cost and
// a small scan's; format 9 times a CPU backend's math functions as expressions call them;
// format 10 adds polygon_mask's measured curve (DeviceCosts::polygon_curve_s); format 11 times
// its edge rate on 1024 rows (256 before) and on 128 (DeviceCosts::polygon_few_rows_edges_per_s)
// and adds a tiny scan's time (DeviceCosts::scan_tiny_s); format 12 times a scan queued behind
// another (DeviceCosts::scan_queued_s); format 13 times a full reduction to a value
// (DeviceCosts::reduce_s) and reads arrays made afresh (one array read again and again was
// 2-3 us cheaper on the H200's GPUs); format 14 times reads of several arrays together
// (DeviceCosts::to_host_more_s); format 15 times wide launches queued one behind another
// (DeviceCosts::wide_queued_s); format 16 times a scan of 16384 elements (DeviceCosts::scan_wide_s);
// format 17 times a CPU backend's math functions on a mix of three (sin alone before, 2-3 times
// faster on the H200's host); format 18 times them also over four chunks
// (DeviceCosts::mid_math_per_s); format 19 times reads of arrays with a kernel after their
// upload (a computed result's read: 1.3 us more on the H200's CUDA) and the host's sort by
// Highway's vqsort where libweft_vqsort loads; format 20 times a GPU's further reads through
// its pinned block (DeviceCosts::to_host_more_s, to_host_more_bytes) and sorts at five sizes
// (DeviceCosts::sort_curve_s); format 21 times an elementwise operation's launch as arrays make
// it (DeviceCosts::eval_launch_s); format 22 adds a CPU backend's spreading of heavy launches
// (DeviceCosts::spread_from_s) and times its one thread's math rate below it; format 23 times
// the first of reads together on an OpenCL CPU device (DeviceCosts::to_host_first_together_s);
// format 24 times a CPU backend's math mix with the cosine of another argument than the sine's
// (of one argument the two were one sincos call: 1.3-1.6 times as fast per call).
// A file of another format is measured again (an older weft's files lack fields this one uses, or hold
// figures of another meaning), with an info line rather than a warning.
constexpr const char* header = "weft-costs 24";
constexpr std::string_view switch_prefix = "switch_after ";
constexpr std::string_view header_prefix = "weft-costs ";
constexpr std::uint64_t max_file_bytes = 1 << 16;

// The numbers of a DeviceCosts by name, in file order.
template <class C, class F>
void each_number(C& c, F&& f) {
  f("launch_s", c.launch_s);
  f("wide_launch_s", c.wide_launch_s);
  f("queued_launch_s", c.queued_launch_s);
  f("eval_launch_s", c.eval_launch_s);
  f("wide_queued_s", c.wide_queued_s);
  f("scan_launch_s", c.scan_launch_s);
  f("scan_tiny_s", c.scan_tiny_s);
  f("scan_wide_s", c.scan_wide_s);
  f("scan_queued_s", c.scan_queued_s);
  f("reduce_s", c.reduce_s);
  f("sync_s", c.sync_s);
  f("bandwidth_Bps", c.bandwidth_Bps);
  f("float32_ops_per_s", c.ops_per_s[0]);
  f("float64_ops_per_s", c.ops_per_s[1]);
  f("integer_ops_per_s", c.ops_per_s[2]);
  f("math_per_s", c.math_per_s);
  f("narrow_math_per_s", c.narrow_math_per_s);
  f("mid_math_per_s", c.mid_math_per_s);
  f("spread_from_s", c.spread_from_s);
  f("to_device_latency_s", c.to_device_latency_s);
  f("to_host_latency_s", c.to_host_latency_s);
  f("to_device_small_Bps", c.to_device_small_Bps);
  f("to_host_small_Bps", c.to_host_small_Bps);
  f("to_device_Bps", c.to_device_Bps);
  f("to_host_Bps", c.to_host_Bps);
  f("to_device_pinned_Bps", c.to_device_pinned_Bps);
  f("to_host_pinned_Bps", c.to_host_pinned_Bps);
  f("to_host_more_s", c.to_host_more_s);
  f("to_host_more_bytes", c.to_host_more_bytes);
  f("to_host_first_together_s", c.to_host_first_together_s);
  f("sort_keys_per_s", c.sort_keys_per_s);
  f("sort_overhead_s", c.sort_overhead_s);
  f("sort_small_keys_per_s", c.sort_small_keys_per_s);
  f("sort_tiny_s", c.sort_tiny_s);
  static constexpr const char* sort_curve[DeviceCosts::sort_points] = {"sort_curve_0_s", "sort_curve_1_s", "sort_curve_2_s",
                                                                       "sort_curve_3_s", "sort_curve_4_s"};
  for (std::size_t i = 0; i < DeviceCosts::sort_points; ++i) f(sort_curve[i], c.sort_curve_s[i]);
  f("polygon_overhead_s", c.polygon_overhead_s);
  f("polygon_pixels_per_s", c.polygon_pixels_per_s);
  f("polygon_edges_per_s", c.polygon_edges_per_s);
  f("polygon_few_rows_edges_per_s", c.polygon_few_rows_edges_per_s);
  static constexpr const char* curve[DeviceCosts::polygon_points] = {
      "polygon_curve_0_s", "polygon_curve_1_s", "polygon_curve_2_s", "polygon_curve_3_s",
      "polygon_curve_4_s", "polygon_curve_5_s", "polygon_curve_6_s", "polygon_curve_7_s"};
  for (std::size_t i = 0; i < DeviceCosts::polygon_points; ++i) f(curve[i], c.polygon_curve_s[i]);
  f("measured_s", c.measured_s);
}

std::string checksum_of(std::string_view body) { return Hasher().update(body).finish().hex(); }

}  // namespace

std::string with_checksum(const std::string& body) { return body + "checksum " + checksum_of(body) + "\n"; }

std::optional<std::string_view> checked_body(std::string_view text, std::string* problem) {
  const std::size_t tail = text.rfind("checksum ");
  if (tail == std::string_view::npos || (tail > 0 && text[tail - 1] != '\n')) {
    *problem = "it has no checksum line (truncated?)";
    return std::nullopt;
  }
  const std::string_view body = text.substr(0, tail);
  std::string_view sum = text.substr(tail + 9);
  if (!sum.empty() && sum.back() == '\n') sum.remove_suffix(1);
  if (sum != checksum_of(body)) {
    *problem = "its checksum does not match its contents";
    return std::nullopt;
  }
  return body;
}

std::string encode_costs(const DeviceCosts& c) {
  std::ostringstream os;
  os.precision(17);
  os << header << "\n" << "identity " << c.identity << "\n" << "memory_is_host " << (c.memory_is_host ? 1 : 0) << "\n"
     << "quick " << (c.quick ? 1 : 0) << "\n";
  each_number(c, [&](const char* name, double v) { os << name << " " << v << "\n"; });
  for (const SwitchCost& sw : c.switch_after) {
    os << switch_prefix << sw.seconds << " " << sw.selector << " " << sw.identity << "\n";
  }
  return with_checksum(os.str());
}

// Parses a stored calibration; false with the reason in problem. The selector is not stored
// (indices change between runs); the caller sets it.
bool decode_costs(std::string_view text, DeviceCosts* out, std::string* problem, bool* outdated) {
  if (outdated) *outdated = false;
  const std::optional<std::string_view> checked = checked_body(text, problem);
  if (!checked) return false;
  const std::string_view body = *checked;
  std::map<std::string, std::string, std::less<>> fields;
  std::vector<SwitchCost> switches;
  std::istringstream in{std::string(body)};
  std::string line;
  if (!std::getline(in, line) || line != header) {
    if (line.starts_with(header_prefix)) {
      *problem = "it is of format '" + line + "', this weft reads '" + std::string(header) + "'";
      if (outdated) *outdated = true;
    } else {
      *problem = "it does not start with '" + std::string(header) + "'";
    }
    return false;
  }
  while (std::getline(in, line)) {
    if (line.starts_with(switch_prefix)) {
      // "switch_after <seconds> <selector> <identity>" (the identity may hold spaces).
      std::istringstream f(line.substr(switch_prefix.size()));
      SwitchCost sw;
      std::string seconds;
      f >> seconds >> sw.selector;
      std::getline(f >> std::ws, sw.identity);
      char* end = nullptr;
      sw.seconds = std::strtod(seconds.c_str(), &end);
      if (seconds.empty() || *end != '\0' || !std::isfinite(sw.seconds) || sw.seconds < 0 || sw.selector.empty() ||
          sw.identity.empty()) {
        *problem = "a switch cost is not '<seconds> <selector> <identity>': '" + line + "'";
        return false;
      }
      switches.push_back(std::move(sw));
      continue;
    }
    const std::size_t sp = line.find(' ');
    if (sp == std::string::npos) {
      *problem = "a line without a value: '" + line + "'";
      return false;
    }
    fields[line.substr(0, sp)] = line.substr(sp + 1);
  }
  DeviceCosts c;
  c.identity = fields["identity"];
  c.memory_is_host = fields["memory_is_host"] == "1";
  c.quick = fields["quick"] == "1";
  c.switch_after = std::move(switches);
  bool ok = true;
  each_number(c, [&](const char* name, double& v) {
    const auto it = fields.find(name);
    if (it == fields.end()) {
      *problem = std::string("it lacks ") + name;
      ok = false;
      return;
    }
    char* end = nullptr;
    v = std::strtod(it->second.c_str(), &end);
    if (end == it->second.c_str() || *end != '\0' || !std::isfinite(v) || v < 0) {
      *problem = std::string(name) + " is not a non-negative number: '" + it->second + "'";
      ok = false;
    }
  });
  if (ok) *out = std::move(c);
  return ok;
}

namespace {
std::string file_name(const std::string& identity) { return Hasher().update(identity).finish().hex() + ".costs"; }
}  // namespace

UniqueFd placement_dir(bool create, std::string* problem) {
  const std::string& root_path = config().cache_dir;
  if (root_path.empty()) {
    *problem = "there is no disk cache (WEFT_CACHE_DIR, XDG_CACHE_HOME and HOME are unset)";
    return {};
  }
  UniqueFd root = open_cache_root(root_path, create, problem);
  if (!root) return {};
  return open_private_directory(root.get(), "placement", create, problem);
}

std::optional<DeviceCosts> load_costs(const Device& device) {
  std::string problem;
  UniqueFd dir = placement_dir(false, &problem);
  if (!dir) return std::nullopt;
  const std::string identity = device_identity(device);
  const std::string name = file_name(identity);
  FileRead r = read_regular_file(dir.get(), name, {.max_bytes = max_file_bytes, .private_to_user = true});
  if (r.missing) return std::nullopt;
  DeviceCosts c;
  bool outdated = false;
  if (!r) problem = r.problem;
  else if (decode_costs(r.data, &c, &problem, &outdated) && c.identity != identity) {
    problem = "it is the calibration of '" + c.identity + "', not of '" + identity + "'";
  }
  if (outdated) {
    // (An older weft's calibration: nothing wrong with it, only less than this weft measures.)
    WEFT_LOG_INFO("calibration " << config().cache_dir << "/placement/" << name << " of " << device.selector()
                                 << " is not used (" << problem << "); measuring again");
    return std::nullopt;
  }
  if (!problem.empty()) {
    WEFT_LOG_WARNING("calibration " << config().cache_dir << "/placement/" << name << " of " << device.selector()
                                    << " is not used (" << problem << "); measuring again");
    return std::nullopt;
  }
  c.selector = device.selector();
  return c;
}

namespace {

struct Memo {
  std::mutex mutex;
  std::map<std::string, DeviceCosts, std::less<>> by_identity;
};
Memo& memo() {
  static Memo m;
  return m;
}

}  // namespace
}  // namespace detail

std::string costs_path(const Device& device) {
  if (config().cache_dir.empty()) return {};
  return config().cache_dir + "/placement/" + detail::file_name(device_identity(device));
}

bool store_costs(const DeviceCosts& costs, std::string* problem) {
  std::string why;
  {
    auto& m = detail::memo();
    std::lock_guard lock(m.mutex);
    m.by_identity[costs.identity] = costs;
  }
  detail::UniqueFd dir = detail::placement_dir(true, &why);
  if (dir && detail::write_private_file_at(dir.get(), detail::file_name(costs.identity), detail::encode_costs(costs), &why)) {
    return true;
  }
  WEFT_LOG_INFO("calibration of " << costs.selector << " not stored: " << why);
  if (problem) *problem = why;
  return false;
}

DeviceCosts costs_of(const Device& device) {
  if (!device) throw InvalidArgument("costs_of: no device given");
  const std::string identity = device_identity(device);
  auto& m = detail::memo();
  {
    std::lock_guard lock(m.mutex);
    if (auto it = m.by_identity.find(identity); it != m.by_identity.end()) {
      DeviceCosts c = it->second;
      c.selector = device.selector();
      return c;
    }
  }
  std::optional<DeviceCosts> c = detail::load_costs(device);
  if (!c) {
    c = measure_costs(device, true);
    store_costs(*c);
  }
  std::lock_guard lock(m.mutex);
  m.by_identity[identity] = *c;
  return *c;
}

void complete_switch_costs(std::vector<DeviceCosts>& costs, const std::vector<Device>& devices, bool quick,
                           bool remeasure) {
  if (costs.size() != devices.size()) {
    throw InvalidArgument("complete_switch_costs: " + std::to_string(costs.size()) + " costs for " +
                          std::to_string(devices.size()) + " devices; give one each");
  }
  for (std::size_t d = 0; d < costs.size(); ++d) {
    DeviceCosts& c = costs[d];
    if (c.memory_is_host) continue;
    bool changed = false;
    for (std::size_t e = 0; e < costs.size(); ++e) {
      const DeviceCosts& other = costs[e];
      if (e == d || other.memory_is_host) continue;
      const auto it = std::find_if(c.switch_after.begin(), c.switch_after.end(), [&](const SwitchCost& s) {
        return s.selector == other.selector && s.identity == other.identity;
      });
      if (it != c.switch_after.end() && !remeasure) continue;
      double seconds = 0;
      try {
        seconds = measure_switch_cost(devices[d], devices[e], quick);
      } catch (const Error& err) {
        // (Stored as none: the model then counts no switch between the two.)
        WEFT_LOG_INFO("calibrate " << c.selector << " after " << other.selector << ": not timed (" << err.what() << ")");
      }
      // A quick measurement (device auto's first use) may run beside the program's own work on
      // the GPU and is kept until the next `weft calibrate`: held to what a switch can cost.
      if (quick) seconds = std::min(seconds, std::max(1e-3, 10 * std::max(c.launch_s, other.launch_s)));
      if (it != c.switch_after.end()) it->seconds = seconds;
      else c.switch_after.push_back({other.selector, other.identity, seconds});
      changed = true;
    }
    if (changed) store_costs(c);
  }
}

namespace {
std::vector<DeviceCosts> auto_table_costs() {
  std::vector<DeviceCosts> table;
  std::vector<Device> used;
  for (const Device& d : devices()) {
    if (table.size() == 63) break;
    table.push_back(costs_of(d));
    used.push_back(d);
  }
  if (table.empty()) throw InvalidArgument("device auto: no device is present to choose from (weft devices)");
  // The switch costs between this run's devices not measured yet (a few ms a pair).
  complete_switch_costs(table, used, true, false);
  return table;
}
}  // namespace

const Chooser& auto_chooser() {
  // Never destroyed (core/lifetime.hpp): completion callbacks of queued work may still teach it
  // (Chooser::observe) while the process exits.
  static detail::Immortal<Chooser> chooser(auto_table_costs());
  // What online learning found in earlier runs, stored with each device's calibration.
  static const bool taught = [] {
    if (!config().placement_learn) return false;
    for (std::size_t d = 0; d < chooser->devices().size(); ++d) {
      chooser->teach(d, detail::load_learnt(chooser->devices()[d].identity));
    }
    return true;
  }();
  (void)taught;
  return *chooser;
}

}  // namespace weft
