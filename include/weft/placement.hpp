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
#include "weft/device_costs.hpp"

namespace weft {

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
