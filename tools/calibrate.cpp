#include "tools/calibrate.hpp"

#include <iomanip>
#include <iostream>
#include <sstream>

#include "tools/support/numbers.hpp"
#include "tools/support/json.hpp"
#include "weft/weft.hpp"

namespace weft::tool {
namespace {

std::string rate(double bytes_per_s) {
  if (bytes_per_s <= 0) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(bytes_per_s >= 10e9 ? 0 : 1) << bytes_per_s / 1e9 << " GB/s";
  return os.str();
}
std::string ops(double per_s) {
  if (per_s <= 0) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(per_s >= 10e9 ? 0 : per_s >= 1e9 ? 1 : 2) << per_s / 1e9 << " G/s";
  return os.str();
}
std::string keys(double per_s) {
  if (per_s <= 0) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(per_s >= 10e9 ? 0 : 2) << per_s / 1e9 << " G/s";
  return os.str();
}
std::string us(double s) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(s >= 1e-4 ? 0 : 1) << s * 1e6 << " us";
  return os.str();
}

void write_json(JsonWriter& w, const DeviceCosts& c, const std::string& path) {
  w.begin_object();
  w.key("selector").value(c.selector);
  w.key("identity").value(c.identity);
  w.key("file").value(path);
  w.key("quick").value(c.quick);
  w.key("memory_is_host").value(c.memory_is_host);
  w.key("launch_s").value(c.launch_s);
  w.key("wide_launch_s").value(c.wide_launch_s);
  w.key("queued_launch_s").value(c.queued_launch_s);
  w.key("eval_launch_s").value(c.eval_launch_s);
  w.key("wide_queued_s").value(c.wide_queued_s);
  w.key("scan_launch_s").value(c.scan_launch_s);
  w.key("scan_wide_s").value(c.scan_wide_s);
  w.key("sync_s").value(c.sync_s);
  w.key("bandwidth_Bps").value(c.bandwidth_Bps);
  w.key("float32_ops_per_s").value(c.ops_per_s[0]);
  w.key("float64_ops_per_s").value(c.ops_per_s[1]);
  w.key("integer_ops_per_s").value(c.ops_per_s[2]);
  w.key("math_per_s").value(c.math_per_s);
  w.key("narrow_math_per_s").value(c.narrow_math_per_s);
  w.key("mid_math_per_s").value(c.mid_math_per_s);
  w.key("spread_from_s").value(c.spread_from_s);
  w.key("to_host_first_together_s").value(c.to_host_first_together_s);
  w.key("to_device_latency_s").value(c.to_device_latency_s);
  w.key("to_host_latency_s").value(c.to_host_latency_s);
  w.key("to_device_small_Bps").value(c.to_device_small_Bps);
  w.key("to_host_small_Bps").value(c.to_host_small_Bps);
  w.key("to_device_Bps").value(c.to_device_Bps);
  w.key("to_host_Bps").value(c.to_host_Bps);
  w.key("to_device_pinned_Bps").value(c.to_device_pinned_Bps);
  w.key("to_host_pinned_Bps").value(c.to_host_pinned_Bps);
  w.key("to_host_more_s").value(c.to_host_more_s);
  w.key("to_host_more_bytes").value(c.to_host_more_bytes);
  w.key("sort_keys_per_s").value(c.sort_keys_per_s);
  w.key("sort_overhead_s").value(c.sort_overhead_s);
  w.key("sort_small_keys_per_s").value(c.sort_small_keys_per_s);
  w.key("sort_tiny_s").value(c.sort_tiny_s);
  w.key("scan_tiny_s").value(c.scan_tiny_s);
  w.key("scan_queued_s").value(c.scan_queued_s);
  w.key("reduce_s").value(c.reduce_s);
  w.key("polygon_overhead_s").value(c.polygon_overhead_s);
  w.key("polygon_pixels_per_s").value(c.polygon_pixels_per_s);
  w.key("polygon_edges_per_s").value(c.polygon_edges_per_s);
  w.key("polygon_few_rows_edges_per_s").value(c.polygon_few_rows_edges_per_s);
  w.key("sort_curve_s").begin_array();
  for (const double t : c.sort_curve_s) w.value(t);
  w.end_array();
  w.key("polygon_curve_s").begin_array();
  for (const double t : c.polygon_curve_s) w.value(t);
  w.end_array();
  w.key("measured_s").value(c.measured_s);
  w.key("switch_after").begin_array();
  for (const SwitchCost& sw : c.switch_after) {
    w.begin_object();
    w.key("selector").value(sw.selector);
    w.key("identity").value(sw.identity);
    w.key("seconds").value(sw.seconds);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void print_table(const std::vector<DeviceCosts>& all) {
  std::cout << std::left << std::setw(13) << "device" << std::right << std::setw(9) << "launch" << std::setw(9) << "wide" << std::setw(9) << "queued" << std::setw(9) << "wide q" << std::setw(9) << "scan" << std::setw(9) << "scan w" << std::setw(9) << "scan q" << std::setw(9) << "reduce" << std::setw(9)
            << "sync" << std::setw(12) << "bandwidth" << std::setw(10) << "f32 ops" << std::setw(10) << "f64 ops"
            << std::setw(10) << "int ops" << std::setw(10) << "math f32" << std::setw(10) << "math 1ch" << std::setw(10) << "math 4ch" << std::setw(9) << "spread" << std::setw(9) << "lat to" << std::setw(9) << "lat from" << std::setw(9) << "more fr" << std::setw(11) << "small to" << std::setw(11) << "small from"
            << std::setw(12) << "to device"
            << std::setw(12) << "to host" << std::setw(12) << "pinned to" << std::setw(12) << "pinned from"
            << std::setw(11) << "sort <64K" << std::setw(11) << "sort keys" << std::setw(10) << "sort +"
            << std::setw(10) << "poly px" << std::setw(11) << "poly edges" << std::setw(9) << "poly +" << "  measured\n";
  for (const DeviceCosts& c : all) {
    std::ostringstream when;
    when << std::fixed << std::setprecision(1) << c.measured_s << " s" << (c.quick ? " (quick)" : "");
    std::cout << std::left << std::setw(13) << c.selector << std::right << std::setw(9) << us(c.launch_s) << std::setw(9) << us(c.wide_launch_s)
              << std::setw(9) << us(c.queued_launch_s) << std::setw(9) << us(c.wide_queued_s) << std::setw(9) << us(c.scan_launch_s) << std::setw(9) << us(c.scan_wide_s) << std::setw(9) << us(c.scan_queued_s) << std::setw(9) << us(c.reduce_s) << std::setw(9) << us(c.sync_s) << std::setw(12) << rate(c.bandwidth_Bps) << std::setw(10)
              << ops(c.ops_per_s[0]) << std::setw(10) << ops(c.ops_per_s[1]) << std::setw(10) << ops(c.ops_per_s[2]) << std::setw(10) << ops(c.math_per_s) << std::setw(10) << ops(c.narrow_math_per_s) << std::setw(10) << ops(c.mid_math_per_s)
              << std::setw(9) << (c.spread_from_s > 0 ? us(c.spread_from_s) : "-") << std::setw(9) << us(c.to_device_latency_s) << std::setw(9) << us(c.to_host_latency_s) << std::setw(9)
              << (c.to_host_more_s > 0 ? us(c.to_host_more_s) : "-") << std::setw(11)
              << (c.memory_is_host ? "host mem" : rate(c.to_device_small_Bps)) << std::setw(11)
              << rate(c.to_host_small_Bps) << std::setw(12)
              << (c.memory_is_host ? "host mem" : rate(c.to_device_Bps)) << std::setw(12)
              << rate(c.to_host_Bps) << std::setw(12)
              << rate(c.to_device_pinned_Bps) << std::setw(12) << rate(c.to_host_pinned_Bps) << std::setw(11)
              << keys(c.sort_small_keys_per_s) << std::setw(11) << keys(c.sort_keys_per_s) << std::setw(10) << (c.sort_keys_per_s > 0 ? us(c.sort_overhead_s) : "-")
              << std::setw(10) << keys(c.polygon_pixels_per_s) << std::setw(11) << keys(c.polygon_edges_per_s)
              << std::setw(9) << (c.polygon_pixels_per_s > 0 ? us(c.polygon_overhead_s) : "-")
              << "  " << when.str()
              << "\n";
  }
  // The switch costs (the first command on a device right after work on another: two drivers'
  // contexts on one GPU; +0 us: measured, none).
  for (const DeviceCosts& c : all) {
    for (const SwitchCost& sw : c.switch_after) {
      std::cout << "switch: " << c.selector << " after " << sw.selector << " +" << us(sw.seconds) << "\n";
    }
  }
}

void print(const std::vector<DeviceCosts>& all, const std::vector<Device>& devs, bool json) {
  if (json) {
    JsonWriter w;
    w.begin_array();
    for (std::size_t i = 0; i < all.size(); ++i) write_json(w, all[i], costs_path(devs[i]));
    w.end_array();
    std::cout << w.str() << "\n";
  } else {
    print_table(all);
  }
}

}  // namespace

int calibrate_command(const std::vector<std::string>& args) {
  bool quick = false, json = false;
  std::vector<Device> devs;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--quick") quick = true;
    else if (args[i] == "--json") json = true;
    else if (args[i] == "--device") {
      if (i + 1 >= args.size()) throw UsageError("--device needs a selector (see `weft devices`)");
      devs.push_back(device(args[++i]));
    } else {
      throw UsageError("unknown option '" + args[i] + "'; calibrate takes --quick, --device SELECTOR, --json");
    }
  }
  const bool named = !devs.empty();
  if (!named) devs = devices();
  std::vector<DeviceCosts> all;
  for (const Device& d : devs) {
    if (!json) std::cerr << "calibrating " << d.selector() << " (" << d.name() << ")...\n";
    DeviceCosts c = measure_costs(d, quick);
    // With devices named, the switch costs d had after the others stay (those between the
    // devices calibrated now are measured again below).
    if (named) c.switch_after = costs_of(d).switch_after;
    std::string problem;
    if (!store_costs(c, &problem)) std::cerr << "weft calibrate: " << d.selector() << " not stored: " << problem << "\n";
    all.push_back(std::move(c));
  }
  // Between the devices calibrated (a few ms a pair; stored with each device's costs).
  complete_switch_costs(all, devs, quick, true);
  print(all, devs, json);
  return 0;
}

int print_costs(bool json) {
  const std::vector<Device> devs = devices();
  std::vector<DeviceCosts> all;
  for (const Device& d : devs) all.push_back(costs_of(d));
  complete_switch_costs(all, devs, true, false);  // (as device auto's first use does)
  print(all, devs, json);
  return 0;
}

}  // namespace weft::tool
