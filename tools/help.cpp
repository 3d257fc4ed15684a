#include "tools/help.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "bench/harness.hpp"

namespace weft::tool {
namespace {

struct Option {
  const char* flag;
  const char* text;
};

struct Command {
  const char* name;
  const char* summary;     // one line, for the overview
  const char* example;     // the overview's example
  const char* synopsis;    // after "usage: weft "
  const char* details;     // a paragraph on the command's page, may be empty
  std::vector<Option> options;
  std::vector<const char*> examples;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> list{
      {"version", "print weft's version", "weft version", "version", "", {}, {"weft version"}},
      {"devices",
       "list every backend and device",
       "weft devices --json",
       "devices [--json] [--costs]",
       "A table of every device weft found (its selector for WEFT_DEVICE and --device), and for a\n"
       "backend with no device, why.",
       {{"--json", "print the devices as a JSON array, with their capabilities"},
        {"--costs", "print each device's cost model (docs/PLACEMENT.md), measured quickly if none is stored"}},
       {"weft devices", "weft devices --json", "weft devices --costs", "WEFT_BACKENDS=host weft devices"}},
      {"calibrate",
       "measure each device's costs for device auto",
       "weft calibrate",
       "calibrate [--quick] [--device SELECTOR]... [--json]",
       "Measures launch latency, synchronisation, device bandwidth, float32/float64/integer\n"
       "throughput and host<->device copies (pageable and pinned) of each device, in about 30 s\n"
       "in all, and stores them beside the program cache (placement/, private to the user), keyed\n"
       "by device and driver version. Device auto uses them (docs/PLACEMENT.md); with nothing\n"
       "stored it measures the quick subset on first use.",
       {{"--quick", "measure the quick subset (under about 2 s a device), as first use does"},
        {"--device SELECTOR", "calibrate only this device (repeatable); default every device"},
        {"--json", "print the measured costs as a JSON array"}},
       {"weft calibrate", "weft calibrate --quick --device host", "weft calibrate --json"}},
      {"cache",
       "show, list, clear or prune the on-disk program cache",
       "weft cache list",
       "cache path|list|clear|prune [--older-than DAYS] [--max-size MB]",
       "The compiled-program cache in $WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft, else\n"
       "~/.cache/weft.\n"
       "  path     print the cache's folder\n"
       "  list     one line per entry: backend, key, size, date, what it holds\n"
       "  clear    remove every entry\n"
       "  prune    remove invalid entries and other weft versions' entries, then entries older\n"
       "           than DAYS, then the oldest until at most MB remain",
       {{"--older-than DAYS", "prune: remove entries older than DAYS days (0 to 36500, fractions allowed)"},
        {"--max-size MB", "prune: then remove the oldest entries until the cache holds at most MB MiB"}},
       {"weft cache path", "weft cache list", "weft cache prune --older-than 30 --max-size 500",
        "WEFT_CACHE_DIR=/tmp/c weft cache clear"}},
      {"bench",
       "run benchmark suites and print a table",
       "weft bench vadd --device host",
       "bench [SUITE...|all] [options]",
       "Times each suite's device work from events (warm-up runs, then R timed runs) and prints\n"
       "the median and best. With no suite named, runs the polygon exercise and the core kernels\n"
       "(polygon vadd elementwise reduce scan); `all` runs every suite. Counts take 1000, 1e6 or\n"
       "2^20.",
       {{"--device SEL[,SEL...]",
         "these devices only (host, cuda:0...; dask: a worker each); default: all"},
        {"--n N", "problem size (elements; pixels for polygon); default: each suite's own"},
        {"--repeat R", "timed runs per measurement (default 10)"},
        {"--warmup W", "untimed runs before them (default 2)"},
        {"--json FILE", "also write the records as JSON to FILE"},
        {"--plot FILE.png", "draw the records as a bar chart (needs matplotlib)"},
        {"--compare", "also measure the peers installed (NumPy, PyOpenCL, CuPy...)"},
        {"--peers DIR", "the peer scripts (default: the installed ones, else bench/peers)"},
        {"--python PROGRAM", "the Python that runs the peers (default python3)"}},
       {"weft bench", "weft bench vadd reduce --device host --n 2^20 --repeat 5",
        "weft bench all --json out.json --plot chart.png", "weft bench vadd --compare"}},
      {"polygon",
       "the mask of a polygon, as .npy or PNG",
       "weft polygon --size 640x480 --vertices 12 --png mask.png",
       "polygon --size WxH (--vertices N [--seed S] | --vertices-file FILE) [options]",
       "Marks the pixels whose centres lie inside the polygon (even-odd rule), on a device.\n"
       "The vertices are N random integer points in [0, W] x [0, H] or one \"x y\" pair per line\n"
       "of FILE (a comma may separate them; '#' starts a comment).",
       {{"--size WxH", "the mask's width and height in pixels (required), e.g. 1024x768"},
        {"--vertices N", "N random vertices (1 to 2^28)"},
        {"--seed S", "the random vertices' seed (default 0): the same seed, the same polygon"},
        {"--vertices-file FILE", "read the vertices from FILE instead"},
        {"--device SELECTOR", "where to compute it (default: WEFT_DEVICE, else the best device)"},
        {"--out FILE.npy", "save the mask (uint8, H x W) for numpy.load"},
        {"--png FILE", "draw the mask with the outline and vertices as a PNG"},
        {"--workers N", "in tiles on a Dask cluster of N worker processes over the devices"},
        {"--dask", "in tiles on a Dask cluster, one worker per device (weft.dask_polygon)"},
        {"--scheduler ADDRESS", "in tiles on the workers of a running Dask scheduler"},
        {"--tile N|HxW", "with --workers/--dask: the tiles' size (default 4096); workers write --out"},
        {"--python PROGRAM", "with --workers/--dask: the Python that runs it (default python3)"}},
       {"weft polygon --size 640x480 --vertices 12 --seed 7 --png mask.png",
        "weft polygon --size 32768x32768 --vertices 1000 --workers 2 --out mask.npy",
        "weft polygon --size 100x100 --vertices-file square.txt --out mask.npy --device host"}},
      {"help",
       "this text, or one command's options",
       "weft help bench",
       "help [COMMAND]",
       "The same as `weft --help`, or `weft COMMAND --help` when a command is named.",
       {},
       {"weft help", "weft help polygon"}},
  };
  return list;
}

const Command* find(std::string_view name) {
  for (const auto& c : commands()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

// Left column padded to the widest entry, so each option stays on one line.
template <class Rows>
void table(std::ostringstream& os, const Rows& rows) {
  std::size_t width = 0;
  for (const auto& [left, right] : rows) width = std::max(width, std::string_view(left).size());
  for (const auto& [left, right] : rows) {
    os << "  " << left << std::string(width - std::string_view(left).size() + 2, ' ') << right << "\n";
  }
}

}  // namespace

std::string overview_help() {
  std::ostringstream os;
  os << "usage: weft <command> [options]\n"
     << "\n"
     << "commands (weft <command> --help for each one's options):\n";
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& c : commands()) rows.emplace_back(c.name, c.summary);
  table(os, rows);
  os << "\nexamples:\n";
  for (const auto& c : commands()) os << "  " << c.example << "\n";
  os << "\nenvironment: WEFT_DEVICE, WEFT_BACKENDS, WEFT_CACHE_DIR, WEFT_LOG ... (the README's table)\n";
  return os.str();
}

std::optional<std::string> command_help(std::string_view name) {
  const Command* c = find(name);
  if (c == nullptr) return std::nullopt;
  std::ostringstream os;
  const std::string_view summary = c->summary;
  os << "usage: weft " << c->synopsis << "\n\n"
     << static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0]))) << summary.substr(1) << ".\n";
  if (*c->details) os << c->details << "\n";
  if (!c->options.empty()) {
    os << "\noptions:\n";
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& o : c->options) rows.emplace_back(o.flag, o.text);
    rows.emplace_back("-h, --help", "this text");
    table(os, rows);
  }
  if (name == "bench") {
    os << "\nsuites:\n";
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& s : weft::bench::suites()) rows.emplace_back(s.name, s.description);
    table(os, rows);
  }
  os << "\nexamples:\n";
  for (const char* e : c->examples) os << "  " << e << "\n";
  return os.str();
}

bool asks_for_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "-h" || a == "--help"; });
}

}  // namespace weft::tool
