// The cost model and the chooser (include/weft/placement.hpp, docs/PLACEMENT.md).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/hash.hpp"
#include "placement/learnt.hpp"
#include "placement/queued.hpp"
#include "weft/error.hpp"
#include "weft/placement.hpp"

namespace weft {

using detail::decision_slots;
using detail::mix;
using detail::size_class;

namespace {

double rate_or(double rate, double fallback) { return rate > 0 ? rate : fallback; }
// Seconds to move bytes at rate; a rate not measured (0) makes the move "never" worth it.
double move_s(double bytes, double rate) {
  if (bytes <= 0) return 0;
  return rate > 0 ? bytes / rate : std::numeric_limits<double>::infinity();
}

// The value at x on the line through (x0, y0) and (x1, y1), x clamped to [x0, x1] (y0 and y1
// finite): every figure the model interpolates between two measured points (a small sort, a
// short scan, a mask's edge time by rows, the polygon curve).
double between(double x, double x0, double y0, double x1, double y1) {
  return y0 + std::clamp((x - x0) / (x1 - x0), 0.0, 1.0) * (y1 - y0);
}


// The result read into the program's memory (a NumPy array, a std::vector, a reduction's
// value): a queue read on every device; where the device's memory is host memory, a memcpy
// at its measured rate (its latency alone when the rate was not measured).
double result_read_s(const DeviceCosts& c, const WorkEstimate& work) {
  return c.memory_is_host && !(c.to_host_Bps > 0) ? c.to_host_latency_s : c.transfer_s(work.result_bytes, false);
}

std::string ms(double s) {
  char buf[32];
  if (!std::isfinite(s)) return "inf";
  const double m = s * 1e3;
  std::snprintf(buf, sizeof buf, m >= 100 ? "%.0f" : m >= 1 ? "%.1f" : m >= 0.01 ? "%.2f" : "%.3f", m);
  return buf;
}

}  // namespace

double DeviceCosts::transfer_s(double bytes, bool to_device) const noexcept {
  const double latency = to_device ? to_device_latency_s : to_host_latency_s;
  const double rate = to_device ? to_device_Bps : rate_or(to_host_Bps, to_host_pinned_Bps);
  const double small = to_device ? to_device_small_Bps : to_host_small_Bps;
  if (!(small > 0)) return latency + move_s(bytes, rate);
  const double first = std::min(bytes, small_copy_bytes);
  return latency + move_s(first, small) + move_s(bytes - first, rate);
}

double DeviceCosts::switch_s(const DeviceCosts& previous) const noexcept {
  for (const SwitchCost& s : switch_after) {
    if (s.selector == previous.selector && s.identity == previous.identity) return s.seconds;
  }
  return 0;
}

double DeviceCosts::math_s(double calls, std::int64_t elements) const noexcept {
  double rate = math_per_s;
  const double chunks = std::ceil(static_cast<double>(std::max<std::int64_t>(elements, 1)) / narrow_elements);
  const auto at_most = [&rate](double r) { rate = rate > 0 ? std::min(rate, r) : r; };
  if (spreads(calls)) {
    // Cut over every thread: their rate, as the wide and the four chunks' operations had it.
    if (mid_math_per_s > 0) at_most(mid_math_per_s);
    return move_s(calls, rate);
  }
  // One thread a chunk of narrow_elements: a small operation runs on few of them.
  if (narrow_math_per_s > 0) at_most(narrow_math_per_s * chunks);
  // And from four chunks' measured rate up, never down (below four chunks it tells nothing).
  if (mid_math_per_s > 0) at_most(mid_math_per_s * std::max(1.0, chunks * narrow_elements / mid_elements));
  return move_s(calls, rate);
}

double DeviceCosts::sort_s(double keys) const noexcept {
  constexpr double line_from = 4096;
  if (sort_tiny_s > 0 && keys < line_from) {
    const double at_line = sort_s(line_from);
    if (keys <= sort_tiny_keys || !(at_line > sort_tiny_s)) return std::min(sort_tiny_s, at_line);
    return between(keys, sort_tiny_keys, sort_tiny_s, line_from, at_line);
  }
  const bool curve = std::all_of(std::begin(sort_curve_s), std::end(sort_curve_s), [](double t) { return t > 0; });
  if (curve) {
    constexpr std::size_t last = sort_points - 1;
    if (keys <= sort_curve_keys(0)) return sort_curve_s[0];
    if (keys >= sort_curve_keys(last)) return sort_curve_s[last] + move_s(keys - sort_curve_keys(last), sort_keys_per_s);
    std::size_t i = 1;
    while (keys > sort_curve_keys(i)) ++i;
    return between(keys, sort_curve_keys(i - 1), sort_curve_s[i - 1], sort_curve_keys(i), sort_curve_s[i]);
  }
  if (!(sort_small_keys_per_s > 0)) return sort_overhead_s + move_s(keys, sort_keys_per_s);
  const double first = std::min(keys, sort_small_keys);
  return sort_overhead_s + move_s(first, sort_small_keys_per_s) + move_s(keys - first, sort_keys_per_s);
}

double DeviceCosts::scan_fixed_s(double elements) const noexcept {
  if (elements > scan_small_elements && scan_wide_s > 0) {
    // Up to the wide scan, from the small one with the pool's wake-up (a CPU backend's).
    const double woken = scan_launch_s + (wide_launch_s > launch_s ? wide_launch_s - launch_s : 0.0);
    return between(elements, scan_small_elements, woken, scan_wide_elements, scan_wide_s);
  }
  if (!(scan_tiny_s > 0) || !(scan_tiny_s < scan_launch_s)) return scan_launch_s;
  return between(elements, scan_tiny_elements, scan_tiny_s, scan_small_elements, scan_launch_s);
}

double DeviceCosts::polygon_edge_s(double rows) const noexcept {
  if (!(polygon_edges_per_s > 0)) return std::numeric_limits<double>::infinity();
  const double many = 1 / polygon_edges_per_s;
  if (!(polygon_few_rows_edges_per_s > 0) || !(rows > 0)) return many;
  // (Never below the time on 1024 rows, as measured: fewer rows keep no more threads at work.)
  const double few = std::max(1 / polygon_few_rows_edges_per_s, many);
  return between(rows, polygon_sides[polygon_few_rows_point], few, polygon_sides[polygon_edges_point], many);
}

double DeviceCosts::polygon_s(double pixels, double row_edges, double rows) const noexcept {
  // (Rows not given: a square image's, sqrt(pixels).)
  if (!(rows > 0)) rows = std::sqrt(pixels);
  const auto edges_s = [&](double edges) { return edges > 0 ? edges * polygon_edge_s(rows) : 0.0; };
  const bool curve = std::all_of(std::begin(polygon_curve_s), std::end(polygon_curve_s),
                                 [](double t) { return t > 0 && std::isfinite(t); });
  if (!curve) return polygon_overhead_s + move_s(pixels, polygon_pixels_per_s) + edges_s(row_edges);
  // A 4-vertex polygon's time at this many pixels, from the measured points.
  const auto px = [](std::size_t i) { return polygon_sides[i] * polygon_sides[i]; };
  double four;
  if (pixels <= px(0)) {
    four = polygon_curve_s[0];
  } else if (pixels >= px(polygon_points - 1)) {
    four = polygon_curve_s[polygon_points - 1] + move_s(pixels - px(polygon_points - 1), polygon_pixels_per_s);
  } else {
    std::size_t i = 1;
    while (px(i) < pixels) ++i;
    four = between(pixels, px(i - 1), polygon_curve_s[i - 1], px(i), polygon_curve_s[i]);
  }
  // Its rows' edges are 4 a row; more cost the edge rate on this many rows.
  return four + edges_s(row_edges - 4 * rows);
}

const char* to_string(Arithmetic a) noexcept {
  switch (a) {
    case Arithmetic::float32: return "float32";
    case Arithmetic::float64: return "float64";
    case Arithmetic::integer: return "integer";
  }
  return "?";
}


Chooser::Chooser(std::vector<DeviceCosts> devices)
    : devices_(std::move(devices)),
      decisions_(std::make_unique<std::atomic<std::uint64_t>[]>(decision_slots)),
      learnt_(std::make_unique<Learnt>()) {
  if (devices_.empty()) throw InvalidArgument("Chooser: the device table is empty; give it at least one device's costs");
  if (devices_.size() > 63) {
    throw InvalidArgument("Chooser: " + std::to_string(devices_.size()) + " devices; a table holds at most 63");
  }
  const std::size_t n = devices_.size();
  switch_.assign(n * n, 0.0);
  for (std::size_t d = 0; d < n; ++d) {
    for (std::size_t e = 0; e < n; ++e) {
      if (e == d) continue;
      const double s = devices_[d].switch_s(devices_[e]);
      switch_[d * n + e] = std::isfinite(s) && s > 0 ? s : 0.0;
      if (switch_[d * n + e] > 0) switches_ = true;
    }
  }
  // (The same in every run, as the stored factors need; the selector where a synthetic table
  // names no identity.)
  for (const DeviceCosts& c : devices_) {
    identity_hash_.push_back(detail::Hasher().update(c.identity.empty() ? c.selector : c.identity).finish().lo);
  }
  forget();
}

Chooser::~Chooser() = default;

void Chooser::forget() const noexcept {
  for (std::size_t i = 0; i < decision_slots; ++i) decisions_[i].store(0, std::memory_order_relaxed);
}

double Chooser::switch_s(std::size_t d, std::size_t e) const noexcept {
  const std::size_t n = devices_.size();
  return d < n && e < n ? switch_[d * n + e] : 0.0;
}

PlacementEstimate Chooser::estimate(std::size_t d, const WorkEstimate& work,
                                    std::span<const InputResidence> inputs, std::size_t after) const {
  const DeviceCosts& c = devices_.at(d);
  PlacementEstimate e;
  const std::uint64_t me = std::uint64_t{1} << d;
  // Queued behind an input's producer, still pending here: the first launch is a queued one
  // (where measured), and the wait is paid by whatever reads the result on the host.
  const bool queued = detail::queued_behind(inputs, d);
  const double first_launch = queued && c.queued_launch_s > 0 ? std::min(c.queued_launch_s, c.launch_s) : c.launch_s;
  const double sync = queued && !work.result_to_host ? 0.0 : c.sync_s;
  // A timed fixed cost (a scan's, a sort's) whose first launch was waited for alone: queued, that
  // launch's round trip is taken off (never below a queued launch).
  const auto queued_fixed = [&](double fixed) {
    return queued ? std::max(first_launch, fixed - (c.launch_s - first_launch)) : fixed;
  };
  // A polygon mask, on a device whose polygon_mask was timed: the whole call into host memory
  // (its overhead, its rates, the vertices' copy and the mask's copy back included).
  const bool polygon = work.polygon_pixels > 0 && c.polygon_pixels_per_s > 0 && c.polygon_edges_per_s > 0;
  const bool sorted = work.sort_keys > 0 && c.sort_keys_per_s > 0;
  // A reduction whose value the host reads, on a device whose reduction was timed whole.
  const bool timed_reduce = !polygon && !sorted && work.reduction && work.result_to_host && c.reduce_s > 0;
  if (polygon) {
    e.launch = c.polygon_overhead_s;
    e.compute = c.polygon_s(work.polygon_pixels, work.polygon_row_edges, work.polygon_rows) - c.polygon_overhead_s;
  } else if (sorted) {
    // A sort, on a device whose own sort was timed: its fixed cost and its rate.
    e.launch = queued_fixed(c.sort_overhead_s) + sync;
    e.compute = c.sort_s(work.sort_keys) - c.sort_overhead_s;
  } else {
    const bool timed_scan = work.scan && c.scan_launch_s > 0;
    const double narrow = timed_scan ? DeviceCosts::scan_small_elements : DeviceCosts::narrow_elements;
    // (A scan longer than the small one, where the wide scan was timed: its wake-up is in that.)
    const bool woken_in_scan = timed_scan && c.scan_wide_s > 0;
    // (A heavy one spread over a CPU backend's threads wakes its pool too, however small.)
    const bool spread = !timed_scan && work.arithmetic == Arithmetic::float32 && c.math_per_s > 0 &&
                        c.spreads(work.math_calls);
    const bool wide =
        !woken_in_scan && c.wide_launch_s > 0 && (static_cast<double>(work.elements) > narrow || spread);
    // A wide operation wakes a CPU backend's pool once: the launches right after find it awake.
    // Launches after the first are queued behind it: each costs queued_launch_s where measured.
    // A scan, where the device's was timed: its launches as timed.
    const double more = std::max(1.0, work.launches) - 1;
    // A scan queued behind its input's producer: what a scan adds in a stream, where timed.
    const auto scan_launches = [&] {
      const double fixed = c.scan_fixed_s(static_cast<double>(work.elements));
      if (!queued || !(c.scan_queued_s > 0)) return queued_fixed(fixed);
      return std::max(first_launch, c.scan_queued_s * fixed / c.scan_launch_s);
    };
    // An elementwise operation waited for alone: its first launch as arrays make it, where timed.
    const double first = !queued && c.eval_launch_s > 0 ? std::max(first_launch, c.eval_launch_s) : first_launch;
    const double launches = timed_scan ? scan_launches()
                                       : first + more * (c.queued_launch_s > 0 ? c.queued_launch_s : c.launch_s);
    // The pool's wake-up: queued behind a pending producer (a wide one: the chain's steps are of
    // one size), what a wide launch queued behind another costs where the device measured it.
    const double wake = !wide ? 0.0
                        : queued && c.wide_queued_s > 0 ? std::max(0.0, c.wide_queued_s - first_launch)
                                                         : c.wide_launch_s - c.launch_s;
    // A timed reduction: its whole fixed cost, the wait and the value's read included (the read
    // shown as copy_out, never more than the whole: PoCL reads a value in a few microseconds
    // where a 64-byte array read into fresh memory took 41 us on the 2-core VM).
    if (timed_reduce) {
      const double whole = queued_fixed(c.reduce_s);
      e.copy_out = std::min(result_read_s(c, work), whole);
      e.launch = wake + whole - e.copy_out;
    } else {
      e.launch = wake + launches + sync;
    }
    const double bytes = work.bytes_read + work.bytes_written;
    double arithmetic = move_s(work.ops, c.ops_rate(work.arithmetic));
    if (work.math_calls > 0 && c.math_per_s > 0 && work.arithmetic == Arithmetic::float32) {
      // The math functions at their measured rate, the rest of the operations at theirs.
      arithmetic = move_s(std::max(0.0, work.ops - 16 * work.math_calls), c.ops_rate(work.arithmetic)) +
                   c.math_s(work.math_calls, work.elements);
    }
    e.compute = std::max(move_s(bytes, c.bandwidth_Bps), arithmetic);
  }
  // The context current on each GPU: the device last given work. A read from another device
  // makes that one current; the operation's commands here then pay the switch to d.
  std::size_t current = after;
  // The devices read from already: on a device whose memory is the host's, an operation reads
  // its inputs from one device together (detail::make_current_all), each after the first at
  // that device's to_host_more_s instead of its latency, where measured (on a GPU, reads of up
  // to its to_host_more_bytes: those through its pinned block).
  std::uint64_t read_from = 0;
  // The devices two or more inputs would be read from (each holding them, the first of their
  // reads then at to_host_first_together_s where measured).
  std::uint64_t seen_once = 0, seen_twice = 0;
  if (c.memory_is_host) {
    for (const InputResidence& in : inputs) {
      if ((in.valid_on & me) || in.on_host) continue;
      seen_twice |= seen_once & in.valid_on;
      seen_once |= in.valid_on;
    }
  }
  for (const InputResidence& in : inputs) {
    if (in.valid_on & me) continue;
    if (in.on_host && (c.memory_is_host || polygon)) continue;  // (the timed call copied its vertices)
    // From the host's memory, or first to the host from the cheapest device holding it.
    double to_host = 0;
    if (!in.on_host) {
      to_host = std::numeric_limits<double>::infinity();
      std::size_t from = no_device;
      for (std::size_t s = 0; s < devices_.size(); ++s) {
        if (!(in.valid_on & (std::uint64_t{1} << s))) continue;
        const DeviceCosts& src = devices_[s];
        const bool together = c.memory_is_host && (read_from & (std::uint64_t{1} << s)) && src.to_host_more_s > 0 &&
                              (src.to_host_more_bytes == 0 || static_cast<double>(in.bytes) <= src.to_host_more_bytes);
        const bool first_of_several = (seen_twice & (std::uint64_t{1} << s)) && src.to_host_first_together_s > 0;
        const double read =
            together           ? src.transfer_s(in.bytes, false) - src.to_host_latency_s + src.to_host_more_s
            : first_of_several ? src.transfer_s(in.bytes, false) - src.to_host_latency_s + src.to_host_first_together_s +
                                     switch_s(s, current)
                               : src.transfer_s(in.bytes, false) + switch_s(s, current);
        const double t = src.memory_is_host ? 0.0 : read;
        if (t < to_host) {
          to_host = t;
          from = s;
        }
      }
      if (!std::isfinite(to_host)) to_host = 0;  // held nowhere in the table: nothing to copy
      if (from != no_device && !devices_[from].memory_is_host) {
        current = from;
        read_from |= std::uint64_t{1} << from;
      }
    }
    const double to_dev = c.memory_is_host ? 0.0 : c.transfer_s(in.bytes, true);
    e.copy_in += to_host + to_dev;
  }
  e.launch += switch_s(d, current);
  if (work.result_to_host && !polygon && !timed_reduce) e.copy_out = result_read_s(c, work);
  return e;
}

std::size_t Chooser::choose(const WorkEstimate& work, std::span<const InputResidence> inputs,
                            std::uint64_t signature, std::size_t after, std::span<const ChainStep> following) const {
  std::size_t best = 0;
  double best_t = std::numeric_limits<double>::infinity();
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    double t = 0;
    if (!following.empty()) {
      t = chain_s(d, work, inputs, following, signature, after);
    } else {
      t = estimate(d, work, inputs, after).total();
      if (signature != 0) t *= correction(signature, work.elements, d, inputs);
    }
    if (t < best_t) {
      best_t = t;
      best = d;
    }
  }
  return best;
}

std::uint64_t Chooser::decision_key(std::uint64_t signature, const WorkEstimate& work,
                                    std::span<const InputResidence> inputs, std::size_t after) const noexcept {
  // Each word folded in by a multiply and a rotation, the whole mixed once at the end (this is
  // on the path of every automatic operation: a full mix per word cost ~30 ns for three inputs).
  const auto fold = [](std::uint64_t h, std::uint64_t v) { return std::rotl((h ^ v) * 0x9e3779b97f4a7c15ULL, 29); };
  std::uint64_t key = fold(signature, size_class(work.elements));
  // The device last given work changes a decision only where switches cost something.
  if (switches_ && after < devices_.size()) key = fold(key, 0x5357000000000000ULL | after);
  key = fold(key, (work.result_to_host ? 1u : 0u) | static_cast<unsigned>(work.arithmetic) << 1);
  for (const InputResidence& in : inputs) {
    key = fold(key, in.valid_on | (in.on_host ? std::uint64_t{1} << 63 : 0));
    if (in.pending_on & in.valid_on) key = fold(key, 0x5155000000000000ULL ^ (in.pending_on & in.valid_on));
  }
  return mix(key, inputs.size());
}

std::size_t Chooser::choose_cached(std::uint64_t signature, const WorkEstimate& work,
                                   std::span<const InputResidence> inputs, bool* remembered, std::size_t after,
                                   std::span<const ChainStep> following) const {
  std::uint64_t key = decision_key(signature, work, inputs, after);
  // A chain's decision apart from the operation's alone, and from another chain's: the steps'
  // structure (their residences as seen elsewhere too).
  // (Two mixes a step: its signature, size class and kind; its inputs' places, 8 bits each.)
  for (const ChainStep& step : following) {
    key = mix(key, step.signature + size_class(step.work.elements) * 0x9e3779b97f4a7c15ULL + (step.value ? 1u : 0u));
    std::uint64_t places = 0;
    for (const ChainInput& in : step.view()) {
      places = places << 8 | static_cast<std::uint64_t>(in.from) << 6 | (in.index & 0x3fu);
      if (in.from == ChainInput::From::elsewhere) {
        key = mix(key, in.seen.valid_on | (in.seen.on_host ? std::uint64_t{1} << 63 : 0));
      }
    }
    key = mix(key, places);
  }
  std::atomic<std::uint64_t>& slot = decisions_[key % decision_slots];
  const std::uint64_t tag = key & ~std::uint64_t{0xff};
  const std::uint64_t held = slot.load(std::memory_order_relaxed);
  const bool hit = held != 0 && (held & ~std::uint64_t{0xff}) == tag;
  if (remembered) *remembered = hit;
  if (hit) return (held & 0xff) - 1;
  const std::size_t best = choose(work, inputs, signature, after, following);
  slot.store(tag | (best + 1), std::memory_order_relaxed);
  return best;
}

std::string Chooser::explain(const std::string& what, const WorkEstimate& work,
                             std::span<const InputResidence> inputs, std::uint64_t signature,
                             std::size_t after, std::span<const ChainStep> following) const {
  std::string out = what + " n=" + std::to_string(work.elements) + ":";
  const std::size_t best = choose(work, inputs, signature, after, following);
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    const PlacementEstimate e = estimate(d, work, inputs, after);
    const double f = signature != 0 ? correction(signature, work.elements, d, inputs) : 1.0;
    out += (d == 0 ? " " : " | ") + devices_[d].selector + " " + ms(f * (e.launch + e.compute)) + " ms";
    if (e.copy_in + e.copy_out > 0) out += " + " + ms(f * (e.copy_in + e.copy_out)) + " ms copy";
    if (detail::queued_behind(inputs, d)) out += " queued";
    if (f != 1.0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, " (x%.2f learnt)", f);
      out += buf;
    }
  }
  if (!following.empty()) {
    out += "; with the " + std::to_string(following.size()) + (following.size() == 1 ? " operation" : " operations") +
           " that followed:";
    for (std::size_t d = 0; d < devices_.size(); ++d) {
      out += (d == 0 ? " " : " | ") + devices_[d].selector + " " + ms(chain_s(d, work, inputs, following, signature, after)) +
             " ms";
    }
  }
  out += " -> " + devices_[best].selector;
  if (switches_ && after < devices_.size()) out += " (after " + devices_[after].selector + ")";
  return out;
}

}  // namespace weft
