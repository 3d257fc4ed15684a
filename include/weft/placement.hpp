// Automatic placement: where an operation is expected to finish first, from each device's
// measured costs and from where the operation's inputs already live (docs/PLACEMENT.md).
//
// The model, per device d, for an operation of a given work estimate:
//
//   time(d) = launch(d) + max(bytes / bandwidth(d), ops / throughput(d, arithmetic))
//           + sum over inputs without a valid copy on d of copy(input -> d)
//           + copy(result -> host) when the result will likely be read on the host
//           + sync(d)
//           + switch(d) when the process last gave work to another context of d's GPU
//
// (an input still being written by work queued on d: launch(d) is a queued launch, and sync(d)
// is paid only when the result goes to the host)
//
// (a sort or a polygon mask on a device where that operation itself was timed: its measured
// fixed cost and rates instead of launch and the max; a polygon mask's copies included)
//
// DeviceCosts holds one device's measured numbers (`weft calibrate`, or a quick subset on
// first use, stored beside the program cache); a Chooser holds a table of them and picks the
// cheapest device, remembering its decision per (signature, size class, residence) so a
// repeated decision costs a table lookup.
//
//   weft::Chooser chooser({weft::costs_of(weft::device("host")), weft::costs_of(weft::device("opencl:cpu"))});
//   weft::WorkEstimate w{.elements = n, .bytes_read = 8.0 * n, .bytes_written = 4.0 * n, .ops = 2.0 * n};
//   weft::InputResidence in[] = {{.bytes = 4.0 * n, .valid_on = 0b01}, {.bytes = 4.0 * n, .valid_on = 0b01}};
//   std::size_t best = chooser.choose(w, in);    // an index into chooser.devices()
//   std::string why = chooser.explain("sum(a*b)", w, in);   // "host 0.31 ms | opencl:0:0 ..."
#pragma once

#include "weft/export.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "weft/device.hpp"

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

/// What an operation does, for the model: from the generated kernel (elements touched, bytes
/// read and written, operations counted from the expression tree).
struct WEFT_API WorkEstimate {
  std::int64_t elements = 0;
  double bytes_read = 0;     // by the kernel, on the device that runs it
  double bytes_written = 0;  // by the kernel
  double ops = 0;            // arithmetic operations in all (elements x operations per element)
  // Of ops, the float32 math-library functions evaluated (each counted as 16 operations in
  // ops): on a device whose math_per_s was measured they cost 1 / math_per_s each instead.
  double math_calls = 0;
  Arithmetic arithmetic = Arithmetic::float32;
  bool result_to_host = false;  // the result is read on the host (a reduction's value)
  double result_bytes = 0;      // what is copied back then
  // A full reduction to a value read on the host: where the device's was timed
  // (DeviceCosts::reduce_s), its launches, wait and read cost that instead of the launch, sync
  // and copy terms.
  bool reduction = false;
  double launches = 1;          // kernels it launches one after another (a radix sort's passes)
  // A scan (scan_work): where the device's scan was timed, its launches cost
  // DeviceCosts::scan_fixed_s(elements) instead of launches x the launch figures (a GPU scans a
  // few thousand elements in one launch, a CPU backend in three).
  bool scan = false;
  // A sort: the keys it orders in float32-key equivalents (a plain sort of n float32 keys: n).
  // Where the device's sort rate was measured, the sort's time is sort_overhead_s +
  // sort_keys / sort_keys_per_s instead of the launches, bytes and operations above.
  double sort_keys = 0;
  // A polygon mask (polygon_work): its pixels and rows x vertices. Where the device's
  // polygon_mask was timed, its time is DeviceCosts::polygon_s of these, which includes the
  // vertices' copy and the mask's copy back (neither is added again).
  double polygon_pixels = 0;
  double polygon_row_edges = 0;
  double polygon_rows = 0;  // its height (0: taken as a square image's)
};

/// The work estimates device auto makes for operations that are not one fused kernel
/// (docs/PLACEMENT.md, "Scans, sorts and polygon masks"). The result is not read on the host
/// (result_to_host false): the caller sets it from where the inputs are.
///
/// A scan (cumsum) of n elements of an expression reading input_bytes in all, of
/// ops_per_element operations, into a result of result_size-byte elements: the expression read
/// twice (the pass that sums blocks, the pass that writes), a multiply-add more per element,
/// three launches.
WEFT_API WorkEstimate scan_work(std::int64_t n, double input_bytes, double ops_per_element, std::size_t result_size,
                                Arithmetic arithmetic);
/// A radix sort of n keys of key_size bytes (8-bit digits: key_size passes; with rows > 1 lines,
/// the passes over the row numbers too, and an int64 index per key): each pass counts (reads the
/// keys), scans the counts and scatters (reads and writes them), three launches. sort_keys
/// is n scaled by the bytes those passes move against a plain sort of float32 keys (8-byte
/// keys: 4n; lines carrying an int64 index: more), for the device's measured sort rate.
WEFT_API WorkEstimate sort_work(std::int64_t n, std::size_t key_size, std::int64_t rows = 1);
/// polygon_mask of a height x width image and vertices vertices: each row tests every edge
/// (a crossing in double precision, about 8 operations), each pixel is written once; the
/// mask goes to the host.
WEFT_API WorkEstimate polygon_work(std::size_t vertices, std::size_t height, std::size_t width);

/// Where one input of an operation lives: bit i of valid_on is set when the device of index
/// i in the Chooser's table holds a valid copy; on_host when a valid copy sits in memory the
/// host reads directly (a NumPy array, a host-backend buffer).
///
/// pending_on: bit i set when the copy on device i is still being written by work queued there
/// (an earlier operation's result, its producer not finished). An operation there then queues
/// behind it: its first launch costs DeviceCosts::queued_launch_s instead of launch_s, and it
/// pays no sync unless its result goes to the host (the wait for the queue is paid once, by
/// what reads the chain's end). Elsewhere the copy waits for the producer as any copy does.
///
/// Host memory weft does not own (Array::borrow_host) counts as valid on another device only
/// where a copy was made since the program's last wait (the owner writes it only after one).
struct WEFT_API InputResidence {
  double bytes = 0;  // what a copy of it moves
  std::uint64_t valid_on = 0;
  bool on_host = false;
  std::uint64_t pending_on = 0;
};

/// One input of an operation of a chain (ChainStep): where its array came from.
struct WEFT_API ChainInput {
  enum class From : std::uint8_t {
    result,       // the result of the chain's operation of index `index` (0: the one being decided)
    first_input,  // input `index` of the operation being decided (a copy it needs is then there too)
    elsewhere,    // another array, whose residence was `seen`
  };
  From from = From::elsewhere;
  std::uint8_t index = 0;
  InputResidence seen;
};

/// An operation that followed the one being decided the last time it ran: it read that one's
/// result or the result of a later step (device auto records these per operation and size
/// class: docs/PLACEMENT.md, "Chains"). Its work as it was estimated then; unless value, its
/// result_to_host is decided again from where the chain leaves its inputs.
struct WEFT_API ChainStep {
  static constexpr std::size_t max_inputs = 8;
  std::uint64_t signature = 0;  // for what online learning found for it
  WorkEstimate work;
  bool value = false;           // its result is a value read on the host (a full reduction)
  std::uint8_t input_count = 0;
  ChainInput inputs[max_inputs];
  std::span<const ChainInput> view() const noexcept { return {inputs, input_count}; }
};

/// The model's terms for one device (seconds).
struct WEFT_API PlacementEstimate {
  double launch = 0;     // launch + sync
  double compute = 0;    // max(bytes / bandwidth, ops / throughput)
  double copy_in = 0;    // the inputs' copies to the device
  double copy_out = 0;   // the result's likely copy back to the host
  double total() const noexcept { return launch + compute + copy_in + copy_out; }
};

/// What online learning found for one operation on one device: its estimates there, for
/// operations of this signature and size class (the power of two of the element count), are
/// scaled by factor (measured / predicted). Stored with the device's calibration.
struct WEFT_API LearntFactor {
  std::uint64_t signature = 0;
  std::uint32_t size_class = 0;
  double factor = 1;
};

/// Picks the device expected to finish an operation first. Holds at most 63 devices (bit 63
/// of a residence mask is kept free). Thread-safe: decisions are remembered in a lock-free
/// table (a wrong entry after a hash collision costs speed, never correctness).
class WEFT_API Chooser {
 public:
  explicit Chooser(std::vector<DeviceCosts> devices);
  Chooser(const Chooser&) = delete;
  Chooser& operator=(const Chooser&) = delete;
  ~Chooser();

  /// No device: the `after` of the calls below when the device last given work is not known
  /// or not in the table (no switch cost is counted).
  static constexpr std::size_t no_device = static_cast<std::size_t>(-1);

  const std::vector<DeviceCosts>& devices() const noexcept { return devices_; }
  /// Whether any device of the table has a switch cost after another (DeviceCosts::switch_after):
  /// only then does `after` change an estimate.
  bool switches() const noexcept { return switches_; }
  /// Seconds the first command on device d costs more after work on device e (table indices).
  double switch_s(std::size_t d, std::size_t e) const noexcept;
  /// The model's terms on device index d; after: the index of the device the process last
  /// gave work (its context is current: a command elsewhere on the same GPU pays the switch,
  /// counted in launch, and so does a copy from a third device).
  PlacementEstimate estimate(std::size_t d, const WorkEstimate& work, std::span<const InputResidence> inputs,
                             std::size_t after = no_device) const;
  /// The index of the cheapest device (the first of equals), computed now, from the model alone
  /// (signature 0) or with the corrections observe() learnt for signature.
  ///
  /// With following (the operations that followed this one the last time: ChainStep), the
  /// device where the chain is expected to finish first: for each device d, chain_s(d).
  std::size_t choose(const WorkEstimate& work, std::span<const InputResidence> inputs,
                     std::uint64_t signature = 0, std::size_t after = no_device,
                     std::span<const ChainStep> following = {}) const;
  /// Seconds the chain takes when this operation runs on device d: its estimate there, then each
  /// following step on the device it would choose then (alone, as choose() decides it, its
  /// inputs where the earlier steps leave them: this operation's inputs copied to d, each result
  /// where its step ran, pending there), summed. A result a later step reads pays no copy back
  /// to the host (the reader pays the copy it needs), and no wait where the reader is queued
  /// behind it on the same device. Without following: estimate(d, ...).total(); with a
  /// signature, each term corrected by what observe() learnt.
  double chain_s(std::size_t d, const WorkEstimate& work, std::span<const InputResidence> inputs,
                 std::span<const ChainStep> following, std::uint64_t signature = 0, std::size_t after = no_device) const;
  /// The same, remembered per (signature, size class of work.elements, residence,
  /// result_to_host): a remembered decision is a hash and one atomic load. signature names
  /// the operation's kind and structure (two calls with one signature and size class cost
  /// alike); the size class is the power of two of the element count.
  /// With following, remembered apart per the steps' structure (their signatures, size
  /// classes and where their inputs come from).
  std::size_t choose_cached(std::uint64_t signature, const WorkEstimate& work,
                            std::span<const InputResidence> inputs, bool* remembered = nullptr,
                            std::size_t after = no_device, std::span<const ChainStep> following = {}) const;
  /// Forgets every remembered decision.
  void forget() const noexcept;
  /// Online correction: the operation of this signature and work ran on device index d in
  /// seconds (from its decision to its completion). Its estimates there, for this signature and
  /// size class, are scaled from now on by the (lower) median of the last five measured / predicted
  /// ratios, once three are counted (the first run in the process, which usually builds or
  /// loads the kernel, is not, also after teach(); a taught factor counts as one ratio): one
  /// disturbed timing does not move it. Until then,
  /// and while the factor moves by 10% or more, the remembered decision is dropped (the
  /// operation is timed again), so a misprediction corrects itself after a few calls. After
  /// eight counted ratios the entry is settled for the process: later timings are ignored and
  /// the decision stays remembered (the operation is no longer timed). True when a counted
  /// factor moved (what is worth storing). Thread-safe; not on the path of a remembered decision.
  bool observe(std::uint64_t signature, const WorkEstimate& work, std::span<const InputResidence> inputs,
               std::size_t d, double seconds, std::size_t after = no_device) const;
  /// The correction observe() has learnt for (signature, size class of elements, device d,
  /// where inputs come from to reach d); 1 when none. What is learnt is kept apart per the
  /// memories d's inputs must be copied from (none, the host's, other devices'), so that an
  /// operation timed on data in place does not correct the estimate of the same operation
  /// whose inputs must first be copied there, nor the other way round.
  double correction(std::uint64_t signature, std::int64_t elements, std::size_t d,
                    std::span<const InputResidence> inputs = {}) const;
  /// Runs of (signature, size class of elements, device d, where inputs come from) that
  /// observe() has timed in this process, the first (not counted) included; a taught factor
  /// counts as one.
  std::size_t timed_runs(std::uint64_t signature, std::int64_t elements, std::size_t d,
                         std::span<const InputResidence> inputs = {}) const;
  /// Online learning's exploration: a device to run this operation on instead of best (the
  /// choice), so that its time there is measured, or best. A device qualifies while its
  /// estimate (as choose() compares them, corrected) is within explore_margin of best's and
  /// fewer than explore_runs of its runs were timed: a near tie is settled by what both sides
  /// take in this process, not by the calibration alone (on an H200 the host's path for a sum
  /// of 100 floats resident on a GPU took 16 us in some processes and 23 in others). Of those
  /// that qualify, the least estimated.
  static constexpr double explore_margin = 1.5;
  static constexpr std::size_t explore_runs = 4;
  std::size_t explore(std::size_t best, const WorkEstimate& work, std::span<const InputResidence> inputs,
                      std::uint64_t signature, std::size_t after = no_device,
                      std::span<const ChainStep> following = {}) const;
  /// The factors learnt for device index d (counted ones only), ordered by signature and size class.
  std::vector<LearntFactor> learnt(std::size_t d) const;
  /// Sets factors for device index d (a stored calibration's, loaded on first use); forgets
  /// remembered decisions. Factors that are not positive and finite are ignored.
  void teach(std::size_t d, std::span<const LearntFactor> factors) const;
  /// One line with each device's estimate and the choice, as WEFT_LOG=info prints it:
  /// "sum(a*b) n=1000000: host 0.31 ms | opencl:0:0 0.9 ms + 4.0 ms copy -> host"; with a
  /// signature, the estimates as corrected by what observe() learnt for it.
  /// With following, the chain's estimate per device too ("; with the 3 operations that
  /// followed: host 0.046 ms | ...").
  std::string explain(const std::string& what, const WorkEstimate& work, std::span<const InputResidence> inputs,
                      std::uint64_t signature = 0, std::size_t after = no_device,
                      std::span<const ChainStep> following = {}) const;

 private:
  std::uint64_t decision_key(std::uint64_t signature, const WorkEstimate& work,
                             std::span<const InputResidence> inputs, std::size_t after) const noexcept;
  std::uint64_t learnt_signature(std::uint64_t signature, std::size_t d,
                                 std::span<const InputResidence> inputs) const noexcept;

  std::vector<DeviceCosts> devices_;
  std::vector<double> switch_;  // switch_[d * size + e]: switch_s(d, e)
  std::vector<std::uint64_t> identity_hash_;  // per device: its identity's hash (learnt_signature)
  bool switches_ = false;
  std::unique_ptr<std::atomic<std::uint64_t>[]> decisions_;
  struct Learnt;
  std::unique_ptr<Learnt> learnt_;
};

/// The costs of device: the stored calibration for its identity when there is a valid one,
/// else measured now by the quick subset (under about 2 s) and stored. Remembered for the
/// process.
WEFT_API DeviceCosts costs_of(const Device& device);
/// Measures device now: the full set (at most about 30 s in all, `weft calibrate`) or the
/// quick subset. Does not store the result.
WEFT_API DeviceCosts measure_costs(const Device& device, bool quick);
/// Times polygon_mask_into a std::vector on device (4 vertices on the square images of
/// DeviceCosts::polygon_sides, 256 vertices on 1024 x 1024 and 128 x 128; the median of 3, or 7
/// for the full set) and sets costs' polygon_curve_s, polygon_overhead_s, polygon_pixels_per_s,
/// polygon_edges_per_s and polygon_few_rows_edges_per_s from them. Unsupported on a device
/// without double precision.
WEFT_API void measure_polygon_costs(const Device& device, bool quick, DeviceCosts& costs);
/// Seconds the first command on device costs more right after a command on previous than
/// after one on device itself: tiny commands (a 64-byte fill and a finish) alternated, a few
/// milliseconds in all. 0 when the two share nothing (never below 0).
WEFT_API double measure_switch_cost(const Device& device, const Device& previous, bool quick);
/// Completes the switch costs of a table (costs[i] of devices[i]): for each pair of devices
/// whose memory is not the host's and whose entry is missing (all of them with remeasure),
/// measure_switch_cost, then stores each device's costs whose entries changed. What
/// `weft calibrate` and the first use of device auto run.
WEFT_API void complete_switch_costs(std::vector<DeviceCosts>& costs, const std::vector<Device>& devices, bool quick,
                                    bool remeasure);
/// Stores costs beside the program cache (atomically, private to the user) and makes them
/// the process's costs for that device. False with the reason when it cannot be stored.
WEFT_API bool store_costs(const DeviceCosts& costs, std::string* problem = nullptr);
/// The calibration file of device (absent or not); empty without a disk cache.
WEFT_API std::string costs_path(const Device& device);
/// The identity a calibration is stored under: backend, name, driver version, compute units.
WEFT_API std::string device_identity(const Device& device);

/// The Chooser behind device `auto`: every device the configuration lets load, with their
/// costs (costs_of). Made on first use.
WEFT_API const Chooser& auto_chooser();

/// Pins device auto in this thread (Python: ``with weft.Device(d):``): while a device is
/// pinned, every operation all of whose arrays are automatic runs on it (its arrays copied
/// there as needed), whatever the model says. Returns the previous pin (an empty Device: none);
/// set_placement_pin(Device()) unpins.
WEFT_API Device set_placement_pin(const Device& device);
/// This thread's pinned device; empty when none.
WEFT_API Device placement_pin();
/// set_placement_pin for a scope; pins nest (the innermost wins).
///
///   { weft::PlacementPin pin(weft::device("opencl:cpu")); double s = weft::sum(a).get(); }  // on PoCL
class WEFT_API PlacementPin {
 public:
  explicit PlacementPin(const Device& device) : previous_(set_placement_pin(device)) {}
  PlacementPin(const PlacementPin&) = delete;
  PlacementPin& operator=(const PlacementPin&) = delete;
  ~PlacementPin() { set_placement_pin(previous_); }

 private:
  Device previous_;
};

class Expr;

/// What device auto would decide for evaluating expr (or, with reduction, for a full
/// reduction of it), as data: the estimates per device (with what was learnt online), the
/// chain's when it would begin one that was seen before, the choice and the WEFT_LOG=info
/// line. Decides nothing and runs nothing.
///
///   weft::PlacementExplanation why = weft::explain(a * b, true);
///   std::cout << why.text;   // "sum n=1000000: host 0.31 ms | opencl:0:0 0.9 ms + 4.0 ms copy -> host"
struct WEFT_API PlacementExplanation {
  bool automatic = false;                   // every array of the expression is automatic
  bool pinned = false;                      // automatic, but a pinned device (PlacementPin) decides
  std::string chosen;                       // where it runs (the fixed device when not automatic)
  std::string text;                         // the log line, or why the chooser is not asked
  WorkEstimate work;                        // when automatic
  std::vector<std::string> devices;         // the chooser's table, when automatic
  std::vector<PlacementEstimate> estimates;  // one per device
  // The operations that followed it the last time it began a chain in this process, which the
  // choice counts (docs/PLACEMENT.md, "Chains"); 0: it is decided alone.
  std::size_t following = 0;
  std::vector<double> chain_s;               // per device: Chooser::chain_s (estimates' totals when alone)
};
WEFT_API PlacementExplanation explain(const Expr& expr, bool reduction = false);

}  // namespace weft
