// One device's measured costs (DeviceCosts), what the placement model (include/weft/placement.hpp,
// docs/PLACEMENT.md) reads of each device: its launches, bandwidth, arithmetic and math rates,
// copies to and from the host, scans, sorts, polygon masks and switches, measured by
// `weft calibrate` (or a quick subset on first use) and stored beside the program cache.
//
//   weft::DeviceCosts c = weft::costs_of(weft::device("host"));
//   double t = c.transfer_s(4096, true);   // seconds to copy 4 KiB to the device
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace weft {

/// The kind of arithmetic an operation's operations are (their throughputs differ).
enum class Arithmetic : std::uint8_t { float32 = 0, float64 = 1, integer = 2 };
WEFT_API const char* to_string(Arithmetic a) noexcept;

/// What the first command on a device costs more after work on another device: two drivers'
/// contexts on one GPU (CUDA and NVIDIA OpenCL on an H200: about 130 us, the GPU switching
/// contexts), 0 for devices that share nothing. The other device is named by its selector and
/// identity (a selector alone may name another device in another run; an identity alone is
/// the same for two GPUs of one model).
struct WEFT_API SwitchCost {
  std::string selector;
  std::string identity;
  double seconds = 0;
};

/// One device's measured costs. Rates are per second; a rate of 0 means "not measured" (a
/// pinned rate) and falls back to the pageable one.
struct WEFT_API DeviceCosts {
  std::string selector;           // "host", "opencl:0:0", "cuda:0"
  std::string identity;           // backend, name, driver and units: what a stored calibration is keyed by
  bool memory_is_host = false;    // its buffers are host memory: reading them on the host copies nothing
  double launch_s = 0;            // enqueue to completion of an (almost) empty kernel, one work-item
  // The same over wide_items work-items (two of the host backend's chunks: little work, its
  // pool woken): what an operation of more than narrow_elements pays (the host backend runs up
  // to 4096 work-items on the caller's thread and wakes its thread pool beyond: 5 us at 10^3
  // elements, 47 us at 10^4 on an H200's 16 cores). 0: not measured (launch_s throughout).
  static constexpr double narrow_elements = 4096;
  static constexpr double mid_elements = 4 * narrow_elements;  // four chunks (mid_math_per_s)
  static constexpr double wide_items = 8192;
  double wide_launch_s = 0;
  // Each launch of an operation of several (a scan's 3, a radix sort's passes) after its first,
  // enqueued behind it with no wait between: the driver's enqueue and the device's start of a
  // queued kernel, without the round trip of a first launch (PoCL on the 2-core VM: 20-26 us a
  // launch waited for alone, 1-4 us more a launch queued behind it). 0: not measured
  // (launch_s each).
  double queued_launch_s = 0;
  // An elementwise operation as arrays launch it: `eval(a * b + c)` of 64 float32 elements
  // resident on the device, waited for (format 21): the array queue, the generated kernel's
  // lookup and arguments on top of launch_s's empty kernel on a queue of its own. PoCL on the
  // 2-core VM ran `a*b+c` of 10^2 resident floats in 18.6-20.1 us where launch_s said 13-14,
  // and kept `sin/exp/cos` of 10^2 there at 1.23-1.26 times the host path's time (run AW). An
  // elementwise operation's first launch costs this where measured (never below launch_s);
  // 0: not measured (launch_s).
  double eval_launch_s = 0;
  // A wide launch enqueued right behind another one, with no wait between (eight waited for
  // together, after the first): the host backend hands a wide launch to its queue's worker and
  // pool, which poll a while before they sleep, so one queued behind another pays less (the
  // H200's host: 7.5-17.2 us queued against 10.4-39.3 waited for alone in seven calibrations;
  // the 2-core VM, whose threads sleep at once, 12.6-14 against 19.5-25). What a wide operation
  // queued behind its input's pending producer pays instead of wide_launch_s. 0: not measured
  // (wide_launch_s then).
  double wide_queued_s = 0;
  // A scan's fixed cost, sync excluded: weft::cumsum of scan_small_elements float32 elements
  // resident on the device (its launches, whichever algorithm the device takes: a single
  // pass on a GPU, three chunked passes on a CPU backend), taken for a scan's launch terms.
  // A CPU backend scans in chunks of that many elements: a longer scan wakes its pool (the
  // wide launch's extra, as an operation of more than narrow_elements). 0: not measured
  // (launches x the launch figures).
  static constexpr double scan_small_elements = 1024;
  double scan_launch_s = 0;
  // The same scan of scan_tiny_elements elements (format 11): a shorter scan's fixed cost is
  // interpolated linearly in elements between the two, never above scan_launch_s. The H200's
  // host: 5.0 us for 64 elements, 6.5 for 1024 (the scan's three chunked passes); charged the
  // latter, a cumsum of 100 elements resident on NVIDIA OpenCL stayed there at 1.22-1.25 times
  // the host path's time. 0: not measured (scan_launch_s throughout).
  static constexpr double scan_tiny_elements = 64;
  double scan_tiny_s = 0;
  // The same scan of scan_wide_elements elements, sync excluded (format 16): a longer scan's
  // fixed cost is interpolated linearly in elements from scan_launch_s with the wide launch's
  // extra at scan_small_elements up to this, and is this beyond (the bytes counted apart). A
  // CPU backend's scan of more than one chunk runs several passes, each on the pool: the H200's
  // host scanned 10^4 elements in 42-60 us where the launch terms said 22, and a chain with
  // that scan from host memory stayed on the host at 1.25-1.35 times cuda:0's time. 0: not
  // measured (scan_launch_s and the wide launch's extra).
  static constexpr double scan_wide_elements = 16384;
  double scan_wide_s = 0;
  // What the same scan of scan_small_elements adds queued behind a pending producer (format 12):
  // eight scans chained, each reading the one before, waited for together, less one waited for
  // alone, over seven. Charged (scaled as scan_fixed_s scales with elements) to a scan queued
  // behind its input's producer. Derived from the scan waited for alone less a launch's round
  // trip, it was the difference of two noisy figures: PoCL on the 2-core VM 20-36 us in three
  // calibrations where a scan in a stream added 9-15, and at 36 a chain's scan left PoCL for
  // the host at 1.2-1.4 times the time of staying. 0: not measured (that difference).
  double scan_queued_s = 0;
  // A full reduction to a value, whole (format 13): weft::sum of scan_small_elements float32
  // elements resident on the device, its value read on the host (its launches, the wait and the
  // read), the finish of an idle queue after it taken off. Charged, with the reduction's compute
  // term, to a reduction whose value the host reads, instead of a launch, a sync and the value's
  // copy (a reduction launches more than one kernel on some devices, and reads its value by a
  // path of its own): on the H200 a sum of 100 resident floats took 31.7 us on NVIDIA OpenCL
  // where those terms said 19.6, 24.3 on CUDA against 17, and a chain ending in one stayed on
  // OpenCL at 1.27-1.30 times the host path's time. Queued behind its input's producer, one
  // launch's round trip is taken off. 0: not measured (the launch, sync and copy terms).
  double reduce_s = 0;
  double sync_s = 0;              // finishing an idle queue: paid once by each operation waited for
  double bandwidth_Bps = 0;       // device memory, bytes read plus written per second (a copy kernel)
  double ops_per_s[3] = {0, 0, 0};  // float32, float64, integer operations per second (Arithmetic order)
  // float32 math-library functions (sin, exp, log, cos) evaluated per second: GPUs evaluate
  // them in a few instructions, a CPU backend calls a scalar library (an H200's host: sin/exp/cos
  // at 10^6 elements 3.3 ms, 100 times what 16 multiply-adds a function at its multiply-add rate
  // say). On a CPU backend the lower of that kernel's rate and an expression's, sin(a) *
  // exp(a) + cos(a) of resident floats (three calls per element, its load, store and loop
  // around it: PoCL on the 2-core VM evaluated sin alone at 40-59 M/s where 16 calls per
  // work-item made 0.1 G/s; format 17, sin alone before, which the H200's host evaluated 2-3
  // times faster than a mix); on a GPU the kernel's. 0: not measured (a function counts 16
  // operations at ops_per_s).
  double math_per_s = 0;
  // The same over narrow_elements elements (4096 calls): what one of a CPU backend's chunks
  // evaluates, on one thread (an H200's host: about 70 M/s, where 16 threads reach 2.8 G/s).
  // An operation of n elements gets min(math_per_s, narrow_math_per_s x
  // ceil(n / narrow_elements)): one thread a chunk. 0: not measured, or the launch was most of
  // the time (a GPU): math_per_s throughout.
  double narrow_math_per_s = 0;
  // On a CPU backend, the same expression's rate over mid_elements elements (four chunks): an
  // operation of n elements gets at most mid_math_per_s x max(1, ceil(n / narrow_elements) / 4)
  // as well, so that a backend of few threads, busy on every chunk from the first, is not
  // taken to scale one thread a chunk: PoCL on the 2-core VM evaluated sin/exp/cos of 16384
  // elements at 0.05-0.11 G calls/s where 65536 reached 0.12-0.14 (math_per_s), and the
  // chunks' rule put 10^4 elements at that wide rate (an operation of sin on 10^4 elements
  // estimated at 80 us took 200-300). The host backend's pool scales a thread a chunk up to
  // its width, and this changes little there. 0: not measured (format 18 on).
  double mid_math_per_s = 0;
  // A CPU backend that cuts a heavy launch over every thread (DeviceCapabilities::
  // spreads_work_from_s, format 22): an operation whose math functions take this long or more
  // on one thread (narrow_math_per_s) runs at the rate of all of them (math_per_s, at most
  // mid_math_per_s) and wakes the pool, whatever its size. 0: one thread a chunk throughout.
  // The H200's host (16 threads) evaluated sin/exp/cos of 4096 elements in 23-29 us, spread,
  // where one thread's rate said 145 us, and auto sent that expression of 10^4 elements from
  // host memory to a GPU at 1.2 times the host's time (run BS).
  double spread_from_s = 0;
  // Copies as arrays make them (an array made on the device from host memory; an array just
  // made on the device, read into fresh host memory after its queue finished), timed at 64 bytes, at
  // small_copy_bytes and at a few MiB: a copy of b bytes costs
  //   latency + min(b, small_copy_bytes) / small rate + max(0, b - small_copy_bytes) / rate
  // (transfer_s). A small rate of 0 (not measured: an injected table) uses the rate throughout.
  static constexpr double small_copy_bytes = 65536;
  double to_device_latency_s = 0;  // a 64-byte array made on the device from host memory
  double to_host_latency_s = 0;    // a 64-byte array read into host memory (a wait for the device)
  double to_device_small_Bps = 0;  // pageable host memory -> device, up to small_copy_bytes
  double to_host_small_Bps = 0;    // device -> fresh pageable host memory, up to small_copy_bytes
  double to_device_Bps = 0;       // pageable host memory -> device, beyond small_copy_bytes
  double to_host_Bps = 0;         // device -> fresh pageable host memory, beyond small_copy_bytes
  double to_device_pinned_Bps = 0;  // pinned host memory -> device (0: not measured)
  double to_host_pinned_Bps = 0;    // device -> pinned host memory (0: not measured)
  // Each further 64-byte array read into host memory with others, for one operation on a
  // device whose memory is the host's (format 14): an operation there reading several arrays
  // resident here reads them together and waits once (a read is a round trip to this device's
  // queue: three inputs of a host operation resident on PoCL took 45-58 us read one after the
  // other, 24 together, where one took 14-20). The first read from here costs transfer_s, each
  // further one this instead of the latency. 0: not measured (each costs transfer_s).
  // A GPU whose small reads go through its pinned block (DeviceCapabilities::
  // reads_through_pinned, format 20) queues reads of up to to_host_more_bytes together so: three
  // inputs of 400 bytes from the H200's GPUs 10-11 us against 26 one after the other.
  double to_host_more_s = 0;
  // The largest read that goes with others at to_host_more_s (the pinned block's reads of at
  // most 64 KiB); 0: any size (an OpenCL CPU device queues every read).
  double to_host_more_bytes = 0;
  // On an OpenCL CPU device (reads_queue_together, format 23): the first of reads together, one
  // 64-byte array read queued and waited for as make_current_all reads it, what an operation
  // reading two or more arrays from here pays for its first instead of to_host_latency_s (a
  // blocking read). PoCL on the 2-core VM: 9.9-11.5 us against 13.3-16.6 for a read alone, which
  // made the host path of sin/exp/cos of 10^2 resident there look as slow as staying (estimated
  // 0.04 ms both ways) where it took 72-84% of staying's time (run BV). 0: not measured.
  double to_host_first_together_s = 0;
  // weft::sort of float32 keys on the device (its own algorithm: CUB, the radix sort kernels,
  // the host's sort), timed at two sizes: sort(n) = sort_overhead_s + n / sort_keys_per_s.
  // 0: not measured (the model then counts a radix sort's passes as bytes and operations).
  double sort_keys_per_s = 0;
  double sort_overhead_s = 0;     // a sort's fixed cost (its launches, scratch), sync excluded
  // The rate up to sort_small_keys keys (timed at 4096 and sort_small_keys): a sort's rate
  // changes with its size (the H200's host: about 45 M keys/s from 4096 to 10^5 keys, 140 M
  // beyond, where its sort runs on every thread), so sort(n) = sort_overhead_s +
  // min(n, sort_small_keys) / sort_small_keys_per_s + max(0, n - sort_small_keys) /
  // sort_keys_per_s. 0: not measured (sort_keys_per_s throughout).
  static constexpr double sort_small_keys = 65536;
  double sort_small_keys_per_s = 0;
  // A sort of sort_tiny_keys keys, sync excluded: below 4096 keys a sort is interpolated
  // between it and the fitted line's value at 4096 (the line's intercept is what 4096 keys pay,
  // a CPU backend's pool woken among it: the H200's host sorted 100 keys in 11 us where the
  // intercept said 41). 0: not measured (the line throughout).
  static constexpr double sort_tiny_keys = 64;
  double sort_tiny_s = 0;
  // Sorts of sort_curve_keys(i) = 4096 x 2^i keys (to sort_small_keys), sync excluded (format
  // 20): where all are measured, a sort of 4096 to 65536 keys is interpolated between them, and
  // beyond at sort_keys_per_s. Small sorts go in steps a line misses: CUB on the H200 sorted
  // 4096 keys in 39-42 us and 8192 in 75-81 (another algorithm), the host's vqsort runs up to
  // 16384 keys on the caller's thread and hands larger sorts to its worker; the line through
  // 4096 and 65536 keys put cuda:0's sort of 10^4 at 53 us (it took 71-82) and the host's at
  // 55 (39-55), keeping the sort of 10^4 keys resident on cuda:0 there at 1.21-1.45 times the
  // host path's time once small reads went through pinned memory (run AU). 0: not measured
  // (the line).
  static constexpr std::size_t sort_points = 5;
  static constexpr double sort_curve_keys(std::size_t i) noexcept { return 4096.0 * static_cast<double>(1u << i); }
  double sort_curve_s[sort_points] = {0, 0, 0, 0, 0};
  // polygon_mask itself: a whole call of polygon_mask_into a std::vector (its vertices' copy,
  // its kernel and the mask's copy back, through pinned memory on a GPU) timed on a few small
  // images. The line polygon(pixels, row_edges) = polygon_overhead_s + pixels /
  // polygon_pixels_per_s + row_edges x polygon_edge_s(rows) (row_edges: rows x vertices) is
  // what a calibration without the curve below uses; with it, its edge times, and its pixel
  // rate beyond the curve's largest image. 0: not measured (the model then counts its bytes,
  // operations and the mask's copy).
  double polygon_overhead_s = 0;
  double polygon_pixels_per_s = 0;
  double polygon_edges_per_s = 0;
  // The same call of a 4-vertex polygon on square images of polygon_sides[i] pixels a side:
  // where all are measured, a mask's time is interpolated (linearly in pixels) between them,
  // its row edges beyond a 4-vertex polygon's at polygon_edge_s(rows), and beyond the largest
  // its pixels at polygon_pixels_per_s. A line does not fit a CPU backend's call: the host
  // backend runs a short kernel and a copy of at most 64 KiB on the caller's thread and hands
  // longer ones to its worker and pool (the H200's host: 10^5 pixels 55-65 us where the line
  // through 16 x 16 and 1024 x 1024 said 19). 0: not measured (the line).
  static constexpr std::size_t polygon_points = 8;
  static constexpr double polygon_sides[polygon_points] = {16, 45, 128, 181, 256, 362, 512, 1024};
  double polygon_curve_s[polygon_points] = {0, 0, 0, 0, 0, 0, 0, 0};
  // The edge rates: 256 vertices against 4 on the curve's 1024 x 1024 image (polygon_edges_per_s,
  // format 11: on 256 x 256 before, where the H200 host's 16 threads test the extra edges in a
  // few microseconds, within the call's noise: one calibration put them at 15 G/s, sending
  // 10^6-pixel masks of 256 vertices to the host at 2.3 times NVIDIA OpenCL's time) and on its
  // 128 x 128 image (polygon_few_rows_edges_per_s, never above the other). A CPU's rows are
  // shared among its threads, and fewer rows keep fewer of them at work: PoCL on the 2-core VM
  // ran an edge in 9-11 ns on 64-128 rows, and in 4.4 or 9.6 (two modes) on 256; the host
  // backend in 5.5-7.8 against 4. Where measured, a mask of at most 128 rows has its extra
  // edges at the rate on 128, one of 1024 rows or more at the rate on 1024, and one between
  // at the per-edge time interpolated linearly in rows. 0: not measured (polygon_edges_per_s
  // throughout).
  static constexpr std::size_t polygon_few_rows_point = 2;
  static constexpr std::size_t polygon_edges_point = 7;  // 1024 x 1024: polygon_edges_per_s's image
  double polygon_few_rows_edges_per_s = 0;
  // The first command here after work on each other device whose memory is not the host's
  // (measured by alternating tiny commands; an entry of 0: measured, no switch). The model
  // adds it when the last command of the process went to that device (Chooser::estimate).
  std::vector<SwitchCost> switch_after;
  bool quick = false;             // measured by the quick subset (first use), not `weft calibrate`
  double measured_s = 0;          // how long the measurement took

  double ops_rate(Arithmetic a) const noexcept { return ops_per_s[static_cast<int>(a)]; }
  /// Seconds to copy bytes host -> device (to_device) or device -> host as arrays do; infinite
  /// when the rate was not measured (and bytes > 0).
  double transfer_s(double bytes, bool to_device) const noexcept;
  /// Seconds the first command here costs more after work on previous (0 when not measured).
  double switch_s(const DeviceCosts& previous) const noexcept;
  /// Seconds to evaluate calls math functions in an operation of elements elements (math_per_s,
  /// narrowed to the chunks a CPU backend's threads take); infinite when no rate was measured.
  double math_s(double calls, std::int64_t elements) const noexcept;
  /// Whether an operation of calls math functions is spread over every thread (spread_from_s).
  bool spreads(double calls) const noexcept {
    return spread_from_s > 0 && narrow_math_per_s > 0 && calls / narrow_math_per_s >= spread_from_s;
  }
  /// Seconds the device's own sort takes for keys float32-key equivalents, its overhead
  /// included (sync excluded); infinite when its rate was not measured.
  double sort_s(double keys) const noexcept;
  /// Seconds a polygon_mask call into host memory takes (overhead, kernel and the mask's copy
  /// back) for pixels pixels in rows rows (0: a square image's) and row_edges rows x vertices;
  /// infinite when its rates were not measured.
  double polygon_s(double pixels, double row_edges, double rows = 0) const noexcept;
  /// Seconds per row edge beyond a 4-vertex polygon's on a mask of rows rows (polygon_s).
  double polygon_edge_s(double rows) const noexcept;
  /// A timed scan's fixed cost (sync excluded) for a scan of elements elements: scan_launch_s,
  /// interpolated down to scan_tiny_s below scan_small_elements where that was measured, and
  /// up to scan_wide_s above it (the pool's wake-up included) where that was.
  double scan_fixed_s(double elements) const noexcept;
};

}  // namespace weft
