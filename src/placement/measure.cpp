// Measuring a device's costs (weft::measure_costs): the kernels of calibrate.cl timed on the
// wall clock around a finished queue, and host<->device copies of pageable and pinned memory.
// Each figure is the median of a few repetitions after one warm-up, so a busy moment on a
// shared machine moves it less than a mean would. The full set aims at about 30 s on the
// slowest device weft has met (PoCL on 2 cores, mostly its first compile); the quick subset,
// run on first use when nothing is stored, at under 2 s.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "placement/measure_parts.hpp"
#include "embedded/weft_embedded.hpp"
#include "weft/array.hpp"
#include "weft/buffer.hpp"
#include "weft/device.hpp"
#include "weft/error.hpp"
#include "weft/pinned_memory.hpp"
#include "weft/placement.hpp"
#include "weft/polygon.hpp"
#include "weft/program.hpp"
#include "weft/queue.hpp"
#include "weft/sort.hpp"

namespace weft {

using detail::Clock;
using detail::median;
using detail::median_time;
using detail::seconds_since;

namespace {

// What is left of a timing once the launch it includes is taken off (never below a tenth of
// it, so a noisy launch figure cannot make a rate infinite).
double net(double t, double launch) { return std::max(t - launch, t * 0.1); }

struct Sizes {
  std::size_t copy_bytes;      // the copy kernel's source (and destination)
  std::size_t transfer_bytes;  // pinned host<->device copies
  std::size_t items;           // work-items of the arithmetic kernels (128 operations each)
  std::size_t sort_keys;       // the larger of the two sorts timed (the smaller: 4096 keys)
  int reps;
};

Sizes sizes_for(bool quick) {
  if (quick) return {std::size_t{8} << 20, std::size_t{8} << 20, std::size_t{1} << 18, std::size_t{1} << 18, 3};
  return {std::size_t{64} << 20, std::size_t{64} << 20, std::size_t{1} << 22, std::size_t{1} << 21, 7};
}

// Median seconds of op on values made resident on device, each run waited for (the array made,
// and the device idle, untimed).
double time_resident(const Device& device, std::span<const float> values, int reps,
                     const std::function<void(const Array&)>& op) {
  const Array a = Array::from_host<float>(values, Shape{static_cast<std::int64_t>(values.size())}, device);
  synchronize(device);
  return median_time(reps, [&] {
    op(a);
    synchronize(device);
  });
}

// The device's own sort (weft::sort: CUB on CUDA, the radix sort kernels on OpenCL, the host
// backend's sort) of float32 keys, timed at five sizes from 4096 to 65536 keys (the curve) and
// a large one, and fitted as overhead + n / rate: the fixed cost (launches, scratch) dominates
// small sorts on a GPU, the rate large ones. The sync the model adds is taken off.
void measure_sort(const Device& device, const Sizes& s, DeviceCosts& c) {
  std::mt19937 gen(27);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const auto time_sort = [&](std::size_t n) {
    std::vector<float> keys(n);
    for (float& k : keys) k = u(gen);
    return time_resident(device, keys, s.reps, [](const Array& a) { const Array sorted = sort(a); });
  };
  // Five sizes from 4096 to 65536 keys (DeviceCosts::sort_curve_s: small sorts go in steps)
  // and a large one: the rate changes with the size (a CPU backend's sort goes parallel, a
  // GPU's fills the device), and one line through 4096 and 2^21 keys made the H200's host sort
  // of 10^4 keys look 2.2 times cheaper than it was.
  double t[DeviceCosts::sort_points];
  for (std::size_t i = 0; i < DeviceCosts::sort_points; ++i) {
    t[i] = time_sort(static_cast<std::size_t>(DeviceCosts::sort_curve_keys(i)));
    // Never below the smaller sort's (a busy moment there, not a faster sort here).
    c.sort_curve_s[i] = std::max(t[i] - c.sync_s, i > 0 ? c.sort_curve_s[i - 1] : 1e-9);
  }
  const std::size_t small = 4096, middle = static_cast<std::size_t>(DeviceCosts::sort_small_keys);
  const std::size_t large = std::max(s.sort_keys, 2 * middle);
  const double t_small = t[0], t_middle = t[DeviceCosts::sort_points - 1], t_large = time_sort(large);
  // A busy moment can make the larger sort look no slower: the rate from the larger alone then.
  const auto rate = [](std::size_t n0, double t0, std::size_t n1, double t1) {
    return t1 > t0 ? static_cast<double>(n1 - n0) / (t1 - t0) : static_cast<double>(n1) / t1;
  };
  c.sort_small_keys_per_s = rate(small, t_small, middle, t_middle);
  c.sort_keys_per_s = rate(middle, t_middle, large, t_large);
  c.sort_overhead_s = std::max(0.0, t_small - static_cast<double>(small) / c.sort_small_keys_per_s - c.sync_s);
  // Below 4096 keys: a tiny sort's own time (DeviceCosts::sort_tiny_s).
  c.sort_tiny_s = std::max(1e-9, time_sort(static_cast<std::size_t>(DeviceCosts::sort_tiny_keys)) - c.sync_s);
}

// The device's scan (weft::cumsum, whichever algorithm the device takes) of
// DeviceCosts::scan_small_elements float32 elements resident there: its launches' fixed cost
// (DeviceCosts::scan_launch_s); and of scan_tiny_elements (DeviceCosts::scan_tiny_s) and
// scan_wide_elements (DeviceCosts::scan_wide_s); and what one adds queued behind another
// (DeviceCosts::scan_queued_s).
void measure_scan(const Device& device, const Sizes& s, DeviceCosts& c) {
  const auto time_scan = [&](double elements) {
    const std::vector<float> values(static_cast<std::size_t>(elements), 1.0f);
    return time_resident(device, values, s.reps, [](const Array& a) { const Array sums = cumsum(a); }) - c.sync_s;
  };
  // (Each timed once. The lower of two medians taken apart was tried in session 22: it fixed
  // one H200 calibration in three, which timed the host's scan of 16384 elements at 91 us
  // against 32-42 and sent cumsum of 10^5 elements on the host to cuda:0 at 1.4-1.7 times its
  // time, but on the 2-core VM it made PoCL's scans look their fastest with the rest of a
  // calibration taken in a fast phase, and a chain of 10^4 elements resident there stayed on
  // PoCL at 1.6-2.3 times the host's time in two calibrations of twelve.)
  c.scan_launch_s = std::max(1e-9, time_scan(DeviceCosts::scan_small_elements));
  // And of scan_tiny_elements (DeviceCosts::scan_tiny_s), never above the longer scan's.
  c.scan_tiny_s = std::clamp(time_scan(DeviceCosts::scan_tiny_elements), 1e-9, c.scan_launch_s);
  // And of scan_wide_elements (DeviceCosts::scan_wide_s): a CPU backend's passes on its pool.
  c.scan_wide_s = std::max(1e-9, time_scan(DeviceCosts::scan_wide_elements));
  // Eight chained, waited for together: what each after the first adds in a stream
  // (DeviceCosts::scan_queued_s), never above a scan waited for alone.
  constexpr int chained = 8;
  const std::vector<float> values(static_cast<std::size_t>(DeviceCosts::scan_small_elements), 1.0f);
  const double t = time_resident(device, values, s.reps, [](const Array& a) {
                     Array x = a;
                     for (int i = 0; i < chained; ++i) x = cumsum(x);
                   }) - c.sync_s;
  c.scan_queued_s = std::clamp((t - c.scan_launch_s) / (chained - 1), 1e-9, c.scan_launch_s);
}

// A full reduction to a value on the device (weft::sum of DeviceCosts::scan_small_elements
// float32 elements resident there, get()), whole: its launches, the wait and the read
// (DeviceCosts::reduce_s), the idle queue's finish after it taken off.
void measure_reduce(const Device& device, const Sizes& s, DeviceCosts& c) {
  const std::vector<float> values(static_cast<std::size_t>(DeviceCosts::scan_small_elements), 1.0f);
  volatile double sink = 0;
  const double t = time_resident(device, values, s.reps, [&](const Array& a) { sink = sum(a).get(); });
  c.reduce_s = std::max(1e-9, t - c.sync_s);
}

// On a CPU backend, math functions as an expression calls them: weft::eval(sin(a)) of float32
// elements resident there, one call per element with that element's load, store and loop
// around it, the launch, wake-up and sync the model charges such an operation taken off. The
// calibration kernel's 16 calls per work-item hid that cost: on the 2-core VM, PoCL evaluated
// sin in an expression at 40-59 M/s (10^4-10^6 elements) where the kernel said 0.1 G/s, and auto
// kept a chain of 10^4 elements resident on PoCL at twice the cost of moving it to the host.
// Wide: s.items / 16 elements (the math kernel's work-items); narrow: narrow_elements (one
// chunk, on one thread). Each rate is the lower of the kernel's and the expression's: the host
// backend evaluates sin alone, vectorized, 2-3 times faster on one thread than the kernel's mix
// of sin, exp, log and cos (the H200's host: 0.2 against 0.07 G/s), and a fused expression of
// several functions (the bench's heavy one) ran at the mix's rate: taking sin's sent that
// expression of 10^5 elements to the host at 2 times the GPU's time. A GPU keeps the kernel's
// figures: there such an expression is its launch and its bytes, and the functions' rate would
// be lost in them.
//
// The expression is sin(a) * exp(a) + cos(a * a), three calls an element (format 17; sin alone
// before): the host backend's sin alone ran at 2.6-2.9 G calls/s on the H200's host in three
// calibrations where the bench's expression of six calls (sin, exp, cos) ran at 1.0-1.2, and sent
// that expression of 10^5 elements from host memory to the host at 1.6-1.8 times cuda:0's time.
// The cosine's argument differs from the sine's (format 24): of one argument the compiler makes
// the two one sincos call, and the mix ran faster per call than calls on different arguments
// (10^5 floats on the host: the H200's 2.2-2.3 G calls/s against 1.6-1.7, where the bench's
// expression of six ran at 1.6-1.7; the 2-core VM's 1.3-1.6 times).
void measure_expression_math(const Device& device, const Sizes& s, DeviceCosts& c) {
  constexpr double calls = 3;
  const auto time_mix = [&](std::size_t n) {
    const std::vector<float> values(n, 0.3f);
    return time_resident(device, values, s.reps, [](const Array& a) {
      const Expr x(a);
      const Array r = eval(sin(x) * exp(x) + cos(x * x));
    });
  };
  // A backend that spreads heavy launches (DeviceCosts::spread_from_s) evaluates a chunk of
  // narrow_elements spread already (the H200's host: 12288 calls, about 70 us on one thread):
  // one thread's rate from an eighth of it, below the spread.
  const std::size_t wide = s.items / 16,
                    narrow = static_cast<std::size_t>(DeviceCosts::narrow_elements) / (c.spread_from_s > 0 ? 8 : 1);
  const double wide_launch = (c.wide_launch_s > 0 ? c.wide_launch_s : c.launch_s) + c.sync_s;
  const auto lower = [](double kernel, double expression) { return kernel > 0 ? std::min(kernel, expression) : expression; };
  c.math_per_s = lower(c.math_per_s, calls * static_cast<double>(wide) / net(time_mix(wide), wide_launch));
  const double t_narrow = time_mix(narrow);
  // Where the launch is most of it, it tells no rate (the kernel's then).
  if (t_narrow > 2 * (c.launch_s + c.sync_s)) {
    c.narrow_math_per_s =
        lower(c.narrow_math_per_s, calls * static_cast<double>(narrow) / net(t_narrow, c.launch_s + c.sync_s));
  }
  // Four chunks (DeviceCosts::mid_math_per_s, format 18): a pool of few threads is busy on
  // all of them already (PoCL on the 2-core VM: 0.05-0.11 G calls/s at 16384 elements, 0.12-0.14 at 65536).
  const auto mid = static_cast<std::size_t>(DeviceCosts::mid_elements);
  const double t_mid = time_mix(mid);
  if (t_mid > 2 * wide_launch) c.mid_math_per_s = calls * static_cast<double>(mid) / net(t_mid, wide_launch);
}

// calibrate.cl, with its double kernels where the device has fp64 (one program per device,
// cached).
std::string calibration_source(const Device& device) {
  std::string source(embedded::calibrate_cl);
  if (device.info().fp64) source += "\n" + std::string(embedded::calibrate_f64_cl);
  return source;
}

}  // namespace

// polygon_mask itself, as users and `weft bench placement` call it (polygon_mask_into a
// std::vector on a queue of the device: the vertices' copy, the kernel, the mask's copy back
// through pinned memory on a GPU), timed on eight square images of 16 to 1024 pixels a side
// (the curve the model interpolates) and two of many vertices (the edge rates on 1024 rows and
// on 128), and fitted as
// overhead + pixels / pixel rate + rows x vertices / edge rate beyond them. A work estimate of
// bytes and operations was far off both ways (the H200's cuda:0 charged 180 us for a 1 MB mask
// it copies in 20, PoCL on 2 cores put at a fifth of its time), and so was the line between a
// CPU backend's points (DeviceCosts::polygon_curve_s). A few ms on a 2-core CPU (after the
// kernel's first build).
void measure_polygon_costs(const Device& device, bool quick, DeviceCosts& c) {
  if (!device) throw InvalidArgument("measure_polygon_costs: no device given");
  Queue q(device);
  const int reps = quick ? 3 : 7;
  const auto time_image = [&](std::size_t vertices, std::size_t side) {
    const std::vector<Point> poly = random_polygon(vertices, 27, side, side);
    std::vector<std::uint8_t> out(side * side);
    return median_time(reps, [&] { polygon_mask_into(q, poly, side, side, out); });
  };
  // 4 vertices on each image of the curve; 256 vertices on 1024 x 1024 and 128 x 128 (the edge
  // rates against 4 there). The line's figures come from the curve's points: its overhead from the smallest,
  // its pixel rate from the two largest (on 256 x 256 the host backend's threads are not all
  // at work, and its rate there put 10^6 pixels at 3.5 times their time).
  constexpr std::size_t points = DeviceCosts::polygon_points;
  double t[points], pixels[points], edges[points];
  for (std::size_t i = 0; i < points; ++i) {
    const auto side = static_cast<std::size_t>(DeviceCosts::polygon_sides[i]);
    t[i] = time_image(4, side);
    pixels[i] = static_cast<double>(side * side);
    edges[i] = static_cast<double>(side * 4);
  }
  // The edge rate on 1024 rows and on 128 (DeviceCosts::polygon_few_rows_edges_per_s). A busy
  // moment can make the image of many vertices look no slower: its own average then. Each image
  // of many vertices is timed twice, apart, and the lower median kept, as is the 4-vertex image
  // it is set against: on the H200's host one calibration in three timed 256 vertices on 1024 x
  // 1024 at 1.5-2 times what the bench's masks of 1000 x 1000 took (1.75 G edges/s against 2.5
  // in another), and sent those to cuda:0 at 1.4-1.8 times the host's time.
  constexpr std::size_t edge_points[] = {DeviceCosts::polygon_edges_point, DeviceCosts::polygon_few_rows_point};
  double many[points] = {};
  for (const std::size_t point : edge_points) {
    many[point] = time_image(256, static_cast<std::size_t>(DeviceCosts::polygon_sides[point]));
  }
  for (const std::size_t point : edge_points) {
    const auto side = static_cast<std::size_t>(DeviceCosts::polygon_sides[point]);
    many[point] = std::min(many[point], time_image(256, side));
    t[point] = std::min(t[point], time_image(4, side));
  }
  const auto edge_rate = [&](std::size_t point) {
    const auto side = static_cast<std::size_t>(DeviceCosts::polygon_sides[point]);
    const double t_many = many[point];
    const double many_edges = 256.0 * static_cast<double>(side);
    return t_many > t[point] ? (many_edges - edges[point]) / (t_many - t[point]) : many_edges / t_many;
  };
  constexpr std::size_t mid = DeviceCosts::polygon_edges_point;
  static_assert(DeviceCosts::polygon_sides[mid] == 1024 && DeviceCosts::polygon_sides[DeviceCosts::polygon_few_rows_point] == 128);
  c.polygon_edges_per_s = edge_rate(mid);
  c.polygon_few_rows_edges_per_s = std::min(edge_rate(DeviceCosts::polygon_few_rows_point), c.polygon_edges_per_s);
  const std::size_t a = points - 2, b = points - 1;
  const double pixel_time = t[b] - t[a] - (edges[b] - edges[a]) / c.polygon_edges_per_s;
  c.polygon_pixels_per_s = pixel_time > 0 ? (pixels[b] - pixels[a]) / pixel_time : pixels[b] / t[b];
  c.polygon_overhead_s =
      std::max(0.0, t[0] - pixels[0] / c.polygon_pixels_per_s - edges[0] * c.polygon_edge_s(DeviceCosts::polygon_sides[0]));
  // The curve never falls: a point below the one before it (a busy moment) takes that one's.
  for (std::size_t i = 0; i < points; ++i) c.polygon_curve_s[i] = std::max(t[i], i > 0 ? c.polygon_curve_s[i - 1] : 1e-9);
}

double measure_switch_cost(const Device& device, const Device& previous, bool quick) {
  if (!device || !previous) throw InvalidArgument("measure_switch_cost: no device given");
  if (device == previous) return 0;
  // An empty kernel of one work-item and a finish on each (the calibration's program, built
  // and cached by measure_costs): the command after one on the same device, and the command
  // right after one on previous.
  struct Side {
    Program program;
    Queue queue;
    Buffer buffer;
    Kernel kernel;
    explicit Side(const Device& d)
        : program(Program::build(d, calibration_source(d))),
          queue(d),
          buffer(d, 64 * sizeof(float)),
          kernel(program.kernel("weft_cal_empty")) {
      kernel.set_args(buffer);
    }
    void tiny() {
      queue.launch(kernel, 1);
      queue.finish();
    }
  };
  Side here(device), there(previous);
  const int reps = quick ? 9 : 31;
  there.tiny();
  const double alone = median_time(reps, [&] { here.tiny(); });
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    there.tiny();
    const auto t0 = Clock::now();
    here.tiny();
    t.push_back(seconds_since(t0));
  }
  return std::max(0.0, median(t) - alone);
}

std::string device_identity(const Device& device) {
  const DeviceInfo& i = device.info();
  return i.backend + "|" + i.name + "|" + i.platform + "|" + i.driver_version + "|units=" +
         std::to_string(i.compute_units);
}

DeviceCosts measure_costs(const Device& device, bool quick) {
  if (!device) throw InvalidArgument("measure_costs: no device given");
  const auto start = Clock::now();
  const DeviceInfo& info = device.info();
  const Sizes s = sizes_for(quick);
  DeviceCosts c;
  c.selector = info.selector;
  c.identity = device_identity(device);
  c.memory_is_host = info.capabilities.memory_is_host;
  c.spread_from_s = info.capabilities.spreads_work_from_s;
  c.quick = quick;

  const Program program = Program::build(device, calibration_source(device));
  Queue q(device);

  // Launch latency and synchronisation.
  Buffer small(device, 64 * sizeof(float));
  Kernel empty = program.kernel("weft_cal_empty");
  empty.set_args(small);
  c.launch_s = median_time(quick ? 9 : 51, [&] {
    q.launch(empty, 1);
    q.finish();
  });
  c.sync_s = median_time(quick ? 9 : 51, [&] { q.finish(); });
  // Launches of `items` work-items queued one behind another, waited for together: what each
  // after the first adds to one waited for alone (`alone`).
  const auto queued_s = [&](std::size_t items, double alone) {
    constexpr int queued = 8;
    const double t = median_time(quick ? 9 : 31, [&] {
      for (int i = 0; i < queued; ++i) q.launch(empty, items);
      q.finish();
    });
    return std::max(0.0, (t - alone) / (queued - 1));
  };
  c.queued_launch_s = queued_s(1, c.launch_s);
  // The same over many work-items: a CPU backend's thread pool wakes for it; queued behind
  // another, the pool is awake (or, where its threads sleep at once, woken again).
  const auto wide = static_cast<std::size_t>(DeviceCosts::wide_items);
  c.wide_launch_s = median_time(quick ? 9 : 31, [&] {
    q.launch(empty, wide);
    q.finish();
  });
  c.wide_queued_s = queued_s(wide, c.wide_launch_s);
  // An elementwise operation as arrays launch it (DeviceCosts::eval_launch_s): the array
  // queue, the generated kernel's lookup and arguments, waited for as launch_s is.
  {
    const Shape shape{64};
    const Array a = Array::full(shape, 1.0, DType::float32, device);
    const Array b = Array::full(shape, 2.0, DType::float32, device);
    const Array e = Array::full(shape, 3.0, DType::float32, device);
    synchronize(device);
    const double t = median_time(quick ? 9 : 31, [&] {
      const Array r = eval(a * b + e);
      synchronize(device);
    });
    c.eval_launch_s = std::max(t, c.launch_s);
  }

  // Device bandwidth: a float4 copy kernel, bytes read plus written.
  {
    const std::size_t n4 = s.copy_bytes / 16;
    Buffer a(device, s.copy_bytes), b(device, s.copy_bytes);
    const float zero = 0;
    q.fill(a, &zero, sizeof zero, 0, s.copy_bytes);
    Kernel copy = program.kernel("weft_cal_copy");
    copy.set_args(a, b);
    const double t = median_time(s.reps, [&] {
      q.launch(copy, n4);
      q.finish();
    });
    c.bandwidth_Bps = 2.0 * static_cast<double>(s.copy_bytes) / net(t, c.launch_s);
  }

  // Arithmetic throughput: 128 operations per work-item (calibrate.cl).
  const auto throughput = [&](const char* kernel, std::size_t elem) {
    Buffer a(device, s.items * elem);
    const std::uint64_t zero = 0;
    q.fill(a, &zero, elem, 0, s.items * elem);
    Kernel k = program.kernel(kernel);
    k.set_args(a);
    const double t = median_time(s.reps, [&] {
      q.launch(k, s.items);
      q.finish();
    });
    return 128.0 * static_cast<double>(s.items) / net(t, c.launch_s);
  };
  c.ops_per_s[static_cast<int>(Arithmetic::float32)] = throughput("weft_cal_f32", 4);
  c.ops_per_s[static_cast<int>(Arithmetic::integer)] = throughput("weft_cal_int", 4);
  // Math functions: 16 calls per work-item, a sixteenth of the work-items of the chains above
  // (a CPU evaluates them a hundred times slower than a multiply-add: PoCL on 2 cores 36 M/s).
  {
    const std::size_t items = s.items / 16;
    Buffer a(device, items * 4);
    const float zero = 0;
    q.fill(a, &zero, sizeof zero, 0, items * 4);
    Kernel k = program.kernel("weft_cal_math");
    k.set_args(a);
    const double t = median_time(s.reps, [&] {
      q.launch(k, items);
      q.finish();
    });
    c.math_per_s = 16.0 * static_cast<double>(items) / net(t, c.launch_s);
    // One chunk's worth (narrow_elements / 16 work-items, 4096 calls): what a small operation
    // gets where a CPU backend runs each chunk on one thread (the H200's host evaluated
    // sin/exp/cos of 10^3 elements in 50 us, 40 times what its 16 threads' rate says).
    const auto few = static_cast<std::size_t>(DeviceCosts::narrow_elements) / 16;
    const double t_few = median_time(s.reps, [&] {
      q.launch(k, few);
      q.finish();
    });
    // Where the launch is most of that time (a GPU evaluates 4096 calls in a microsecond), it
    // tells no rate: not measured (0), math_per_s throughout.
    c.narrow_math_per_s = t_few > 2 * c.launch_s ? 16.0 * static_cast<double>(few) / net(t_few, c.launch_s) : 0.0;
  }
  // Without fp64 a double operation does not run there at all; the chooser never picks a device
  // whose rate is 0 for the work's arithmetic (its time is infinite).
  if (info.fp64) c.ops_per_s[static_cast<int>(Arithmetic::float64)] = throughput("weft_cal_f64", 8);

  // Host<->device copies as arrays make them; pinned rates (shown, not yet used) from a large
  // blocking copy (full calibration only).
  detail::measure_array_copies(device, quick, c);
  try {
    detail::measure_reads_together(device, quick, c);
  } catch (const Error& e) {
    WEFT_LOG_INFO("calibrate " << info.selector << ": reads of several arrays together not timed (" << e.what() << ")");
  }
  if (!quick) {
    try {
      Buffer d(device, s.transfer_bytes);
      PinnedMemory pinned(device, s.transfer_bytes);
      std::memset(pinned.data(), 1, s.transfer_bytes);
      const double bytes = static_cast<double>(s.transfer_bytes);
      c.to_device_pinned_Bps = bytes / net(median_time(s.reps, [&] { q.write(d, pinned.data(), s.transfer_bytes); }),
                                           c.to_device_latency_s);
      c.to_host_pinned_Bps = bytes / net(median_time(s.reps, [&] { q.read(d, pinned.data(), s.transfer_bytes); }),
                                         c.to_host_latency_s);
    } catch (const Error& e) {
      WEFT_LOG_DEBUG("calibrate " << info.selector << ": no pinned memory (" << e.what() << ")");
    }
  }
  if (info.type == DeviceType::cpu) {
    try {
      measure_expression_math(device, s, c);
    } catch (const Error& e) {
      WEFT_LOG_INFO("calibrate " << info.selector << ": math functions timed by the kernel only (" << e.what() << ")");
    }
  }
  try {
    measure_scan(device, s, c);
  } catch (const Error& e) {
    WEFT_LOG_INFO("calibrate " << info.selector << ": its scan not timed (" << e.what() << ")");
  }
  try {
    measure_reduce(device, s, c);
  } catch (const Error& e) {
    WEFT_LOG_INFO("calibrate " << info.selector << ": its reduction not timed (" << e.what() << ")");
  }
  try {
    measure_sort(device, s, c);
  } catch (const Error& e) {
    // (The model then counts a sort's passes as bytes and operations.)
    WEFT_LOG_INFO("calibrate " << info.selector << ": its sort not timed (" << e.what() << ")");
  }
  if (info.fp64) {
    try {
      measure_polygon_costs(device, quick, c);
    } catch (const Error& e) {
      // (The model then counts a mask's bytes, operations and copy back.)
      WEFT_LOG_INFO("calibrate " << info.selector << ": its polygon_mask not timed (" << e.what() << ")");
    }
  }
  c.measured_s = seconds_since(start);
  WEFT_LOG_INFO("calibrated " << info.selector << (quick ? " (quick)" : "") << " in " << c.measured_s << " s");
  return c;
}

}  // namespace weft
