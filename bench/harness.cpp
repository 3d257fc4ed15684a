#include "bench/harness.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include "tools/support/files.hpp"
#include "tools/support/json.hpp"
#include "tools/support/numbers.hpp"
#include "tools/support/process.hpp"

namespace weft::bench {

namespace {
std::vector<Suite>& registry() {
  static std::vector<Suite> list;
  return list;
}

Stats summarize(std::vector<double> t) {
  Stats s;
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  s.min = t.front();
  const std::size_t m = t.size() / 2;
  s.median = t.size() % 2 ? t[m] : 0.5 * (t[m - 1] + t[m]);
  return s;
}

std::string peers_dir(const Options& options) {
  if (!options.peers_dir.empty()) return options.peers_dir;
  // Installed beside the program (bin/../share/weft/peers), else the source tree.
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "weft" / "peers";
    if (std::filesystem::is_directory(installed, ec)) return installed.string();
  }
  return WEFT_SOURCE_DIR "/bench/peers";
}

std::string fmt_time(double s) {
  std::ostringstream os;
  os << std::fixed;
  if (s >= 1) os << std::setprecision(3) << s << " s";
  else if (s >= 1e-3) os << std::setprecision(3) << s * 1e3 << " ms";
  else os << std::setprecision(2) << s * 1e6 << " us";
  return os.str();
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return out;
}

// A record line of a peer: "record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median<TAB>min<TAB>bytes".
// False (and nothing added) when a field is not a number of its kind.
bool parse_record(const std::vector<std::string>& f, const std::string& suite, Record* rec) {
  try {
    rec->suite = suite;
    rec->method = f[1];
    rec->device = f[2];
    rec->n = tool::parse_integer("n", f[3], 0, std::numeric_limits<std::uint64_t>::max());
    rec->dtype = f[4];
    rec->seconds_median = tool::parse_number("median", f[5], 0, 1e9);
    rec->seconds_min = tool::parse_number("min", f[6], 0, 1e9);
    rec->bytes = tool::parse_number("bytes", f[7], 0, 1e30);
    return true;
  } catch (const tool::UsageError&) {
    return false;
  }
}
}  // namespace

SuiteRegistration::SuiteRegistration(Suite suite) { registry().push_back(std::move(suite)); }

const std::vector<Suite>& suites() { return registry(); }

void Context::add(Record r) { records_.push_back(std::move(r)); }

void Context::add(Record r, Values values) {
  values_.resize(records_.size());
  records_.push_back(std::move(r));
  values_.push_back(std::move(values));
}

const Context::Values& Context::values(std::size_t i) const {
  static const Values none;
  return i < values_.size() ? values_[i] : none;
}

void Context::progress(const std::string& what) const {
  std::cerr << "  ... " << what << std::endl;
}

Stats time_events(int warmup, int repeat, const std::function<Event()>& fn) {
  for (int i = 0; i < warmup; ++i) fn().wait();
  std::vector<double> t;
  for (int i = 0; i < repeat; ++i) {
    const Event e = fn();
    t.push_back(e.profile().seconds());
  }
  return summarize(std::move(t));
}

Stats time_array_calls(const Context& ctx, const Device& dev, const std::function<void()>& fn, int batch) {
  Stats s = time_wall(ctx.options().warmup, ctx.options().repeat, [&] {
    for (int k = 0; k < batch; ++k) fn();
    synchronize(dev);
  });
  s.median /= batch;
  s.min /= batch;
  return s;
}

std::size_t default_array_n(const Device& d, std::size_t gpu_n) {
  return d.type() == DeviceType::gpu ? gpu_n : (std::size_t{1} << 24);
}

Stats time_wall(int warmup, int repeat, const std::function<void()>& fn) {
  for (int i = 0; i < warmup; ++i) fn();
  std::vector<double> t;
  for (int i = 0; i < repeat; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return summarize(std::move(t));
}

bool run_peer(Context& ctx, const std::string& suite, const std::string& script,
              const std::vector<std::string>& args, std::string* why) {
  const std::string path = peers_dir(ctx.options()) + "/" + script;
  std::vector<std::string> argv{ctx.options().python, path};
  argv.insert(argv.end(), args.begin(), args.end());
  // Each line is taken as the peer prints it: its progress shows (and its records are kept)
  // even when it runs long or is cut short.
  bool any = false;
  const auto take = [&](const std::string& line) {
    const auto f = split_tabs(line);
    if (f.size() == 8 && f[0] == "record") {
      Record rec;
      if (parse_record(f, suite, &rec)) {
        ctx.add(std::move(rec));
        ctx.progress(f[1] + " on " + f[2] + ": median " + f[5] + " s, min " + f[6] + " s");
        any = true;
      } else {
        ctx.progress(script + " printed a malformed record, left out: " + line.substr(0, 200));
      }
    } else if (f.size() == 2 && f[0] == "skip") {
      ctx.progress("peer skipped: " + f[1]);
    } else if (f.size() == 2 && f[0] == "info") {
      ctx.progress(f[1]);
    }
  };
  tool::ProcessResult r;
  try {
    r = tool::run_process(argv, take);
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return false;
  }
  if (r.exit_code != 0 && why) *why = "exit " + std::to_string(r.exit_code) + ": " + r.output.substr(0, 300);
  return r.exit_code == 0 || any;
}

namespace {
// The chart, drawn by plot.py from the records in a private temporary directory (the
// --json file may be a pipe, and no file beside the chart is the tool's to use), then
// written to --plot like any output file.
void plot(const Options& options, const std::string& json) {
  tool::TempDir dir("weft-plot-");
  const std::string in = dir.path() + "/records.json", out = dir.path() + "/chart.png";
  tool::write_output_file(in, json);
  const auto r = tool::run_process({options.python, peers_dir(options) + "/plot.py", in, out});
  if (r.exit_code != 0) throw Error("weft bench: --plot failed: " + r.output);
  tool::write_output_file(options.plot_path, tool::read_input_file(out, std::size_t{1} << 30, "plot.py's chart"));
  std::cerr << "weft bench: chart written to " << options.plot_path << "\n";
}
}  // namespace

int run_bench(const Options& options) {
  std::vector<Device> devs;
  if (options.device.empty()) {
    devs = devices();
  } else {
    // a comma-separated list runs each suite on those devices, in that order (the dask suite
    // starts one worker per entry: --device cuda:0,cuda:1)
    std::string sel;
    std::istringstream list(options.device);
    while (std::getline(list, sel, ',')) {
      if (sel.empty()) {
        throw Error("weft bench: --device '" + options.device +
                    "' has an empty selector; it accepts SELECTOR or SELECTOR,SELECTOR,...");
      }
      devs.push_back(device(sel));
    }
  }
  if (devs.empty()) {
    std::cerr << "weft bench: no devices\n";
    return 1;
  }
  std::vector<const Suite*> chosen;
  std::vector<std::string> names = options.suites;
  if (names.empty()) names.assign(std::begin(default_suites), std::end(default_suites));
  if (names.size() == 1 && names[0] == "all") {
    for (const auto& s : suites()) chosen.push_back(&s);
  } else {
    for (const auto& name : names) {
      auto it = std::find_if(suites().begin(), suites().end(), [&](const Suite& s) { return s.name == name; });
      if (it == suites().end()) {
        std::string known;
        for (const auto& s : suites()) known += (known.empty() ? "" : ", ") + s.name;
        std::cerr << "weft bench: unknown suite '" << name << "'; suites: " << known << "\n";
        return 2;
      }
      chosen.push_back(&*it);
    }
  }
  Context ctx(options, devs);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const Suite* s = chosen[i];
    std::cerr << "weft bench [" << i + 1 << "/" << chosen.size() << "]: " << s->name << " (" << s->description << ")"
              << std::endl;
    s->run(ctx);
  }

  // The table: per suite, each method's time and its speed-up over the slowest of the same
  // suite and size (rows of other sizes, such as the CPU's 2^24 beside the GPU's 2^26 or a
  // one-off start-up time beside per-call times, are not compared).
  const auto& recs = ctx.records();
  int sw = 6, mw = 7;
  for (const auto& r : recs) {
    sw = std::max(sw, static_cast<int>(r.suite.size()) + 2);
    mw = std::max(mw, static_cast<int>(r.method.size()) + 2);
  }
  std::cout << std::left << std::setw(sw) << "suite" << std::setw(mw) << "method" << std::setw(14)
            << "device" << std::right << std::setw(10) << "n" << std::setw(9) << "dtype"
            << std::setw(12) << "median" << std::setw(12) << "min" << std::setw(10) << "GB/s"
            << std::setw(10) << "speed-up" << "\n";
  for (const Suite* s : chosen) {
    for (const auto& r : recs) {
      if (r.suite != s->name) continue;
      double slowest = 0;
      for (const auto& o : recs) {
        if (o.suite == r.suite && o.n == r.n) slowest = std::max(slowest, o.seconds_median);
      }
      std::ostringstream gb, up;
      if (auto g = r.gbps()) gb << std::fixed << std::setprecision(1) << *g;
      else gb << "-";
      up << std::fixed << std::setprecision(2) << (r.seconds_median > 0 ? slowest / r.seconds_median : 0) << "x";
      std::cout << std::left << std::setw(sw) << r.suite << std::setw(mw) << r.method << std::setw(14)
                << r.device << std::right << std::setw(10) << r.n << std::setw(9) << r.dtype
                << std::setw(12) << fmt_time(r.seconds_median) << std::setw(12) << fmt_time(r.seconds_min)
                << std::setw(10) << gb.str() << std::setw(10) << up.str() << "\n";
    }
  }

  if (!options.json_path.empty() || !options.plot_path.empty()) {
    tool::JsonWriter w;
    w.begin_array();
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const Record& r = recs[i];
      w.begin_object();
      w.key("suite").value(r.suite);
      w.key("method").value(r.method);
      w.key("device").value(r.device);
      w.key("n").value(static_cast<unsigned long long>(r.n));
      w.key("dtype").value(r.dtype);
      w.key("seconds_median").value(r.seconds_median);
      w.key("seconds_min").value(r.seconds_min);
      w.key("gbps");
      if (auto g = r.gbps()) w.value(*g);
      else w.null();
      if (!r.note.empty()) w.key("note").value(r.note);
      if (!ctx.values(i).empty()) {
        w.key("values").begin_object();
        for (const auto& [k, v] : ctx.values(i)) w.key(k).value(v);
        w.end_object();
      }
      w.end_object();
    }
    w.end_array();
    const std::string json = w.str() + "\n";
    if (!options.json_path.empty()) tool::write_output_file(options.json_path, json);
    if (!options.plot_path.empty()) plot(options, json);
  }
  return 0;
}

}  // namespace weft::bench
