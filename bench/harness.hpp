// The benchmark harness behind `weft bench`: suites register themselves, run on the devices
// asked for, time device work from events (warm-up runs, then R timed runs), and add
// records that the command prints as a table and writes as JSON.
//
//   static const weft::bench::SuiteRegistration reg{{"vadd", "c = a + b, float32", run_vadd}};
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "weft/weft.hpp"

namespace weft::bench {

struct Options {
  std::vector<std::string> suites;   // empty: default_suites; "all": every suite
  std::string device;                // selector; empty: every device
  std::optional<std::size_t> n;      // problem size; each suite has its default
  int repeat = 10;
  int warmup = 2;
  std::string json_path;
  std::string plot_path;             // a PNG bar chart of the results (through matplotlib)
  bool compare = false;              // also measure the peers found installed
  std::string peers_dir;             // the peer scripts; empty: installed ones, else the source tree's
  std::string python = "python3";    // what runs them
};

/// What `weft bench` runs when no suite is named: the polygon exercise and the core kernels.
inline constexpr const char* default_suites[] = {"polygon", "vadd", "elementwise", "reduce", "scan"};

struct Record {
  std::string suite;
  std::string method;
  std::string device;
  std::size_t n = 0;
  std::string dtype;
  double seconds_median = 0;
  double seconds_min = 0;
  double bytes = 0;                  // bytes moved per run; gbps when > 0
  std::string note;
  std::optional<double> gbps() const {
    if (bytes <= 0 || seconds_median <= 0) return std::nullopt;
    return bytes / seconds_median * 1e-9;
  }
};

struct Stats {
  double median = 0;
  double min = 0;
};

class Context {
 public:
  Context(const Options& options, std::vector<Device> devices)
      : options_(options), devices_(std::move(devices)) {}
  const Options& options() const { return options_; }
  const std::vector<Device>& devices() const { return devices_; }
  std::size_t n_or(std::size_t fallback) const { return options_.n.value_or(fallback); }
  void add(Record r);
  /// Named figures (a placement case's time per device, auto's, auto / best) written with the
  /// record as the JSON object "values"; not shown in the table.
  using Values = std::vector<std::pair<std::string, double>>;
  void add(Record r, Values values);
  void progress(const std::string& what) const;
  const std::vector<Record>& records() const { return records_; }
  /// The values added with records()[i] (empty when none).
  const Values& values(std::size_t i) const;

 private:
  const Options& options_;
  std::vector<Device> devices_;
  std::vector<Record> records_;
  std::vector<Values> values_;  // parallel to records_ once any record has values
};

struct Suite {
  std::string name;
  std::string description;
  std::function<void(Context&)> run;
};

struct SuiteRegistration {
  explicit SuiteRegistration(Suite suite);
};
const std::vector<Suite>& suites();

/// Device time of fn's event: warmup untimed runs, then repeat timed ones.
Stats time_events(int warmup, int repeat, const std::function<Event()>& fn);
/// Wall-clock time of fn (which must block until done).
Stats time_wall(int warmup, int repeat, const std::function<void()>& fn);
/// Wall-clock time per call of fn, which enqueues array work on dev: batch calls, then a wait
/// for the device's array work, with the context's warmup and repeat; the figures are per call.
Stats time_array_calls(const Context& ctx, const Device& dev, const std::function<void()>& fn, int batch = 1);
/// The default element count of the array suites: 2^26 on GPUs (gpu_n where a suite wants
/// more), 2^24 elsewhere.
std::size_t default_array_n(const Device& d, std::size_t gpu_n = std::size_t{1} << 26);

/// Runs a peer script from bench/peers (PYTHON SCRIPT ARGS...). Each line it prints of the
/// form "record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median<TAB>min<TAB>bytes" becomes
/// a record of suite; "skip<TAB>reason" explains a missing peer and "info<TAB>text" is
/// shown as progress. Returns false when the script could not run.
bool run_peer(Context& ctx, const std::string& suite, const std::string& script,
              const std::vector<std::string>& args, std::string* why);

/// Runs the suites, prints the table, writes JSON. Returns the process exit code.
int run_bench(const Options& options);

/// `weft bench-child first-launch SELECTOR`: the program-cache suite's child process.
int first_launch_child(const std::string& selector);
/// `weft bench-child first-result SELECTOR`: the first-result suite's child process.
int first_result_child(const std::string& selector);

}  // namespace weft::bench
