// Device `auto` for array operations (src/array/auto_device.hpp): the work estimate of an
// expression tree, the residence of its arrays as the chooser's masks, the decision (cached
// per signature and size class) and the expression moved to the chosen device (seen_from.cpp).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "array/expr_node.hpp"
#include "array/memory_pool.hpp"
#include "core/lifetime.hpp"
#include "core/log.hpp"
#include "runtime/device_work.hpp"
#include "placement/chain_trace.hpp"
#include "placement/costs_file.hpp"
#include "placement/queued.hpp"
#include "placement/small_vector.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_waits.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"
#include "weft/placement.hpp"

namespace weft::detail {

namespace {

// The chooser of device auto and the devices of its table, in the same order; for each, its
// implementation (a residence's copy is matched by pointer) and whether the host reads its
// memory directly.
struct AutoTable {
  const Chooser& chooser;
  std::vector<Device> devices;
  std::vector<const void*> impls;
  std::vector<bool> memory_is_host;
  bool chains = config().placement_chains;  // (the configuration is read once per process)
  bool learn = config().placement_learn;
};
const AutoTable& auto_table() {
  // Never destroyed (core/lifetime.hpp): a completion callback may use it while the process exits.
  static Immortal<AutoTable> t([] {
    const Chooser& c = auto_chooser();
    AutoTable table{c, {}, {}, {}};
    for (const DeviceCosts& costs : c.devices()) {
      table.devices.push_back(device(costs.selector));
      table.impls.push_back(table.devices.back().impl().get());
      table.memory_is_host.push_back(table.devices.back().info().capabilities.memory_is_host);
    }
    return table;
  }());
  return *t;
}

// An operator's name of at most 8 characters as one number (its bytes, little end first),
// 0 for a longer one: the names below compared as integers, not strings (a walk of a small
// expression's tree is on the path of every automatic operation).
constexpr std::uint64_t packed(std::string_view s) noexcept {
  if (s.size() > 8) return 0;
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < s.size(); ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[i])) << (8 * i);
  return v;
}

// Operations per element a node costs, roughly in multiply-adds: the functions a math library
// evaluates by a polynomial or an iteration count several.
double node_ops(const ExprNode& n) {
  using K = ExprNode::Kind;
  if (n.kind == K::leaf || n.kind == K::scalar) return 0;
  if (n.kind == K::cast || n.kind == K::where) return 1;
  if (n.kind == K::call) return 16;  // a user's function: unknown, counted as a math function
  const std::string_view op(n.op);
  // (Operators of one or two characters are none of the names below but "/": decided at once.)
  if (op.size() <= 2) return op == "/" ? 4 : 1;
  static constexpr std::array<std::uint64_t, 23> heavy = {
      packed("cbrt"), packed("exp"),  packed("exp2"),  packed("expm1"), packed("log"),   packed("log2"),
      packed("log10"), packed("log1p"), packed("sin"),  packed("cos"),   packed("tan"),   packed("asin"),
      packed("acos"), packed("atan"), packed("sinh"),  packed("cosh"),  packed("tanh"),  packed("asinh"),
      packed("acosh"), packed("atanh"), packed("power"), packed("atan2"), packed("hypot")};
  const std::uint64_t p = packed(op);
  if (std::find(heavy.begin(), heavy.end(), p) != heavy.end()) return 16;
  // A square root or a division is one instruction, of lower throughput than a multiply-add.
  if (p == packed("sqrt") || p == packed("floordiv") || op == "remainder" || op == "logaddexp") return 4;
  return 1;
}

// A result made within this many commands of its device's array queue, while that queue is
// still busy, counts as pending there (Residence::made_at): its producer is most likely among
// them. (Not exact: the queue may be busy with later work; then an operation queued there
// waits for that too, which the model does not see.)
constexpr std::uint64_t recent_commands = 16;

// Which devices of the table one analysis found busy (their array queue's last command not
// done): each is asked once per analysis (a lock and a look at an event).
struct BusyDevices {
  std::uint64_t asked = 0, busy = 0;
};

// Marks the allocation's first copy pending (InputResidence::pending_on) when an operation made
// it there a few commands ago and that device's array queue has not finished yet.
void mark_pending(const Residence& r, const Buffer& first, const AutoTable& t, BusyDevices& seen,
                  InputResidence& in) {
  const std::uint64_t made = r.made_at.load(std::memory_order_relaxed);
  if (made == Residence::not_tracked) return;
  const auto& device = first.impl()->device();
  DeviceOrder& order = device->order();
  if (order.array_work() - made > recent_commands) return;
  for (std::size_t i = 0; i < t.impls.size(); ++i) {
    if (t.impls[i] != device.get()) continue;
    const std::uint64_t bit = std::uint64_t{1} << i;
    if (!(seen.asked & bit)) {
      seen.asked |= bit;
      if (order.array_pending()) seen.busy |= bit;
    }
    in.pending_on |= seen.busy & bit;
  }
}

// The residence of one allocation, into in (filled in place: a copy of one just built, stored
// field by field, stalled on the store-to-load forwarding): its bytes, where its valid copies
// are and whether its first copy is still being written there.
void residence_of(const Array& a, const AutoTable& t, BusyDevices& seen, InputResidence& in) {
  auto& r = *static_cast<Residence*>(const_cast<void*>(a.allocation_id()));
  in.bytes = static_cast<double>(r.bytes);
  // Marks the copy on the device of implementation impl; false when it is not in the table.
  auto in_table = [&](const void* impl) {
    bool found = false;
    for (std::size_t i = 0; i < t.impls.size(); ++i) {
      if (t.impls[i] != impl) continue;
      in.valid_on |= std::uint64_t{1} << i;
      found = true;
      if (t.memory_is_host[i]) in.on_host = true;
    }
    return found;
  };
  if (!r.spread.load(std::memory_order_acquire)) {
    // One copy, the array's own, valid (copy_on sets spread, under the lock, once a second one
    // is made): no residence lock taken, the usual case of a repeated operation on one device.
    if (!in_table(a.buffer_handle().impl()->device().get()) && a.device().info().capabilities.memory_is_host) {
      in.on_host = true;
    }
    mark_pending(r, a.buffer_handle(), t, seen, in);
    return;
  }
  std::unique_lock lock(r.mutex);
  // Borrowed host memory: its copies elsewhere made before the program's last wait are
  // refreshed from it by the next operation that runs there (Array::to), so they do not count
  // while it is valid.
  const bool borrowed = r.borrowed.load(std::memory_order_relaxed) && r.copies.front().valid;
  for (const auto& c : r.copies) {
    if (!c.valid || (borrowed && &c != &r.copies.front() && !detail::fresh_since_last_wait(c))) continue;
    if (!in_table(c.device.impl().get()) && c.device.info().capabilities.memory_is_host) in.on_host = true;
  }
  const bool first_valid = r.copies.front().valid;
  const Buffer first = r.copies.front().buffer;
  lock.unlock();
  if (first_valid) mark_pending(r, first, t, seen, in);
}

// One pass over an expression tree whose arrays are all automatic: its operation count, its
// signature and the distinct allocations it reads with their residence (in the order of the
// tree's leaves), without allocating for a handful of them.
struct Walk {
  Walk(SmallVector<const void*, 8>& allocations, SmallVector<InputResidence, 8>& into)
      : seen(allocations), inputs(into) {}
  double ops_per_element = 0;
  double math_per_element = 0;  // of which math-library functions (16 operations each)
  bool any_float64 = false, any_float = false;
  std::uint64_t signature = 0xcbf29ce484222325ULL;
  SmallVector<const void*, 8>& seen;       // the distinct allocations read
  SmallVector<InputResidence, 8>& inputs;  // their residences
  BusyDevices busy;
};

// How many arrays the tree reads and how many of them are automatic; the device of the first
// array that is not. Cheap: the common case (no automatic array) stops here.
struct Leaves {
  std::size_t all = 0, automatic = 0;
  Device fixed;
  const void* auto_device = nullptr;  // the device of the automatic arrays, when they share one
  bool one_device = true;
};
void count_leaves(const ExprNode& n, Leaves& l) {
  if (n.kind == ExprNode::Kind::leaf) {
    ++l.all;
    if (n.array.is_auto()) {
      ++l.automatic;
      const auto& buffer = n.array.buffer_handle().impl();
      const void* d = buffer ? buffer->device().get() : nullptr;  // (no Device made: no reference counted)
      if (!l.auto_device) l.auto_device = d;
      else if (l.auto_device != d) l.one_device = false;
    } else if (!l.fixed) {
      l.fixed = n.array.device();
    }
  }
  for (const auto& k : n.kids) count_leaves(*k, l);
}

// One node's kind, dtype and operator into w's flags and signature.
void note_node(ExprNode::Kind kind, DType dtype, std::string_view op, Walk& w) {
  if (dtype == DType::float64) w.any_float64 = true;
  if (is_floating(dtype)) w.any_float = true;
  w.signature = (w.signature ^ (static_cast<std::uint64_t>(kind) << 8 | static_cast<std::uint64_t>(dtype))) *
                0x100000001b3ULL;
  // (FNV-1a over the operator's name: the same in every run, as the stored learnt factors need.)
  for (const char c : op) w.signature = (w.signature ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
}

// A leaf's array: its allocation and residence, once per allocation.
void note_array(const Array& a, const AutoTable& t, Walk& w) {
  if (w.seen.contains(a.allocation_id())) return;
  w.seen.push_back(a.allocation_id());
  residence_of(a, t, w.busy, w.inputs.emplace_back());
}

void walk(const ExprNode& n, const AutoTable& t, Walk& w) {
  const double ops = node_ops(n);
  w.ops_per_element += ops;
  if (ops == 16 && n.kind != ExprNode::Kind::call) w.math_per_element += 1;
  note_node(n.kind, n.dtype, n.op, w);
  if (n.kind == ExprNode::Kind::leaf) note_array(n.array, t, w);
  for (const auto& k : n.kids) walk(*k, t, w);
}


thread_local Device pinned;  // set_placement_pin
// How many threads have a pin set (a thread that ends pinned stays counted): while none has,
// an operation does not look at its thread's pin (a look-up of thread-local state costs a call
// in a shared library).
std::atomic<int> pinned_threads{0};
bool is_pinned() { return pinned_threads.load(std::memory_order_relaxed) != 0 && pinned; }

// The table index of the device the process last gave work (runtime/device_work.hpp), for the
// switch term; no_device where no switch costs anything (one relaxed load then).
std::size_t last_worked(const AutoTable& t) {
  if (!t.chooser.switches()) return Chooser::no_device;
  const void* last = last_device_work();
  for (std::size_t i = 0; i < t.devices.size(); ++i) {
    if (t.devices[i].impl().get() == last) return i;
  }
  return Chooser::no_device;
}

}  // namespace

struct AutoDecision {
  std::uint64_t signature;
  WorkEstimate work;
  std::vector<InputResidence> inputs;
  std::size_t device;
  std::chrono::steady_clock::time_point when;
  std::size_t after = Chooser::no_device;  // the device last given work when decided
};

namespace {

// One timed run: the chooser learns from it and, when a factor moved, the device's factors are
// stored with its calibration (a few times per operation and size class: observe() stops
// moving once the estimate is right).
void learn(const AutoDecision& d, double seconds) {
  const AutoTable& t = auto_table();
  WEFT_LOG_DEBUG("placement learns: n=" << d.work.elements << " on " << t.devices[d.device].selector() << " took "
                                        << seconds * 1e3 << " ms, estimated "
                                        << t.chooser.estimate(d.device, d.work, d.inputs, d.after).total() * 1e3 << " ms");
  if (!t.chooser.observe(d.signature, d.work, d.inputs, d.device, seconds, d.after)) return;
  static std::mutex storing;
  std::lock_guard lock(storing);
  const std::vector<LearntFactor> factors = t.chooser.learnt(d.device);
  store_learnt(t.chooser.devices()[d.device].identity, factors);
}

// Whether a marker's profile() gives its completion on the host's steady clock on a queue
// without profiling (DeviceCapabilities::markers_carry_host_times, set by each backend).
// OpenCL's markers have no times unless the queue profiles, and their completion callbacks
// come late on PoCL.
bool markers_carry_host_times(const Device& d) { return d.info().capabilities.markers_carry_host_times; }

std::uint64_t steady_ns(std::chrono::steady_clock::time_point t) {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

}  // namespace

void learn_when_done(const AutoPlacement& placed, const Future<double>* result) {
  if (!placed.decision) return;
  if (markers_carry_host_times(placed.device)) {
    // A marker after the operation: its end time is the operation's completion (and that of
    // whatever was queued before it on the array queue, which a busy queue adds to the
    // measure), exact however late the callback runs.
    detail::then_within(detail::array_queue(placed.device).marker(), [d = placed.decision](const Event& done) {
      try {
        const std::uint64_t end = done.profile().end, start = steady_ns(d->when);
        if (end > start) learn(*d, static_cast<double>(end - start) * 1e-9);
      } catch (const Error&) {
        // The operation failed (its get() reports it): nothing to learn.
      }
    });
    return;
  }
  if (!result) return;  // (an OpenCL eval is not timed: no host read waits for it here)
  // Timed where the host waits for the value, to when get() had it (the read of its 8 bytes
  // included, which the model counts). When the value was still pending as get() began, that
  // is its completion. When it was ready already, it completed between the end of the enqueue
  // and get()'s start: the time is an overestimate by less than the gap from the enqueue to
  // get() having the value, used when that gap is at most half of it (`float(weft.sum(...))`:
  // get() right after the enqueue); nothing is learnt from a value collected later.
  const auto enqueued = std::chrono::steady_clock::now();
  result->on_collected([d = placed.decision, enqueued](bool pending, std::chrono::steady_clock::time_point had) {
    const double s = std::chrono::duration<double>(had - d->when).count();
    const double gap = std::chrono::duration<double>(had - enqueued).count();
    if (pending || gap <= 0.5 * s) learn(*d, s);
  });
}

const Array& mark_automatic(const Array& array, std::uint64_t result_tag) {
  // (Array::to_auto's flag, set without the copy of the array it returns.)
  auto* r = static_cast<Residence*>(const_cast<void*>(array.allocation_id()));
  if (!r) throw InvalidArgument("to_auto: an empty array");
  r->automatic.store(true, std::memory_order_relaxed);
  tag_result(*r, result_tag);
  return array;
}

bool reads_automatic(const Expr& expr) {
  Leaves leaves;
  count_leaves(*expr.node(), leaves);
  return leaves.automatic > 0;
}

namespace {

// What the chooser decides from: the work estimate of expr, its inputs' residence and its
// signature (every array of expr automatic).
struct Analysis {
  WorkEstimate work;
  SmallVector<const void*, 8> allocations;  // the distinct allocations read, in the order of residences
  SmallVector<InputResidence, 8> residences;
  std::span<const InputResidence> inputs() const noexcept { return residences.view(); }
  std::uint64_t signature = 0;
};

// The estimate of evaluating what w walked (elements of dtype) into a.
void estimate(Analysis& a, const Walk& w, std::int64_t elements, DType dtype, const char* what, bool result_to_host) {
  WorkEstimate& work = a.work;
  work.elements = elements;
  const double n = static_cast<double>(work.elements);
  for (const InputResidence& in : a.inputs()) work.bytes_read += in.bytes;
  work.ops = n * std::max(1.0, w.ops_per_element + (result_to_host ? 1.0 : 0.0));
  work.arithmetic = w.any_float64 ? Arithmetic::float64 : w.any_float ? Arithmetic::float32 : Arithmetic::integer;
  work.math_calls = n * w.math_per_element;
  if (result_to_host) {
    work.result_to_host = true;
    work.result_bytes = 8;
    work.reduction = true;
  } else {
    work.bytes_written = n * static_cast<double>(size_of(dtype));
    // A result computed from host data alone is likely read on the host; one computed from
    // data already on a device likely stays for the next operation there.
    const std::span<const InputResidence> inputs = a.inputs();
    const bool from_host = std::all_of(inputs.begin(), inputs.end(), [&](const InputResidence& in) {
      return in.on_host || in.valid_on == 0;
    });
    work.result_to_host = from_host;
    work.result_bytes = work.bytes_written;
  }
  a.signature = w.signature;
  for (const char* p = what; *p; ++p) a.signature = (a.signature ^ static_cast<unsigned char>(*p)) * 0x100000001b3ULL;
}

Analysis analyse(const Expr& expr, const char* what, bool result_to_host, const AutoTable& t) {
  Analysis a;
  Walk w(a.allocations, a.residences);
  walk(*expr.node(), t, w);
  estimate(a, w, expr.shape().size(), expr.dtype(), what, result_to_host);
  return a;
}

// The same for one array (Expr(array)'s analysis, without making the expression).
Analysis analyse(const Array& array, const char* what, bool result_to_host, const AutoTable& t) {
  Analysis a;
  Walk w(a.allocations, a.residences);
  note_node(ExprNode::Kind::leaf, array.dtype(), {}, w);
  note_array(array, t, w);
  estimate(a, w, array.size(), array.dtype(), what, result_to_host);
  return a;
}

// The chain remembered after the operation a describes, when it would begin one now.
std::shared_ptr<const ChainSteps> remembered_after(const Analysis& a) {
  return config().placement_chains ? chain_for(a.allocations.view(), a.signature, a.work.elements) : nullptr;
}

}  // namespace

std::shared_ptr<const std::vector<ChainStep>> chain_after(const Expr& expr, bool reduction) {
  if (!expr.node()) return nullptr;
  Leaves leaves;
  count_leaves(*expr.node(), leaves);
  if (leaves.automatic == 0 || leaves.automatic < leaves.all) return nullptr;
  return remembered_after(analyse(expr, reduction ? "sum" : "eval", reduction, auto_table()));
}

namespace {

// What the chooser decided for an analysed operation: the device (an index into the table),
// the decision to learn from (when made afresh) and its chain step.
struct Decided {
  std::size_t device;
  std::shared_ptr<const AutoDecision> decision;
  std::uint64_t result_tag;
};

Decided decide(Analysis& a, const char* what, bool result_to_host, const std::function<void(WorkEstimate&)>& shape,
               const AutoTable& t) {
  if (shape) shape(a.work);
  // The operations that followed this one last time, when it begins a chain (chain_trace.hpp).
  const NotedOperation noted =
      t.chains ? note_operation(a.allocations.view(), a.inputs(), a.signature, a.work, result_to_host) : NotedOperation{};
  const std::span<const ChainStep> following =
      noted.following ? std::span<const ChainStep>(*noted.following) : std::span<const ChainStep>();
  bool remembered = false;
  const std::size_t after = last_worked(t);
  const std::size_t best = t.chooser.choose_cached(a.signature, a.work, a.inputs(), &remembered, after, following);
  WEFT_LOG_INFO(t.chooser.explain(what, a.work, a.inputs(), a.signature, after, following));
  // Only a decision made afresh is timed (a marker and a callback cost a few microseconds):
  // observe() drops the remembered decision while its estimate is still moving. Its clock
  // starts here, after the choice (a remembered one reads no clock). An operation reading an
  // input whose producer is still pending is not timed: queued behind it, or copying it
  // elsewhere, its time from here would include the producer's.
  // A device estimated close to the choice whose runs of this operation were not timed enough
  // yet is tried instead (Chooser::explore), and timed.
  std::shared_ptr<const AutoDecision> decision;
  std::size_t chosen = best;
  if (!remembered && t.learn && !any_pending(a.inputs())) {
    const std::span<const InputResidence> inputs = a.inputs();
    chosen = t.chooser.explore(best, a.work, inputs, a.signature, after, following);
    if (chosen != best) WEFT_LOG_INFO(what << ": tried on " << t.devices[chosen].selector() << " (learning online)");
    decision = std::make_shared<const AutoDecision>(AutoDecision{
        a.signature, a.work, std::vector<InputResidence>(inputs.begin(), inputs.end()), chosen,
        std::chrono::steady_clock::now(), after});
  }
  return {chosen, std::move(decision), noted.result_tag};
}

}  // namespace

std::optional<AutoPlacement> place_automatically(const Expr& expr, const char* what, bool result_to_host,
                                                 const std::function<void(WorkEstimate&)>& shape, bool move) {
  Leaves leaves;
  count_leaves(*expr.node(), leaves);
  if (leaves.automatic == 0) return std::nullopt;
  // An array of a fixed device fixes where the operation runs: the automatic ones follow it.
  if (leaves.automatic < leaves.all) {
    return AutoPlacement{leaves.fixed, seen_from(expr, leaves.fixed), false, nullptr, 0};
  }
  // (Every array already seen from d, the usual case of a repeated operation: nothing to move.)
  const auto placed = [&](const Device& d, std::shared_ptr<const AutoDecision> decision, std::uint64_t tag) {
    const bool there = leaves.one_device && leaves.auto_device == d.impl().get();
    AutoPlacement p{d, there || !move ? expr : seen_from(expr, d), true, std::move(decision), tag};
    p.moves = !there && !move;
    return p;
  };
  if (is_pinned()) {
    WEFT_LOG_INFO(what << ": on " << pinned.selector() << " (pinned)");
    return placed(pinned, nullptr, 0);
  }
  const AutoTable& t = auto_table();
  Analysis a = analyse(expr, what, result_to_host, t);
  Decided decided = decide(a, what, result_to_host, shape, t);
  return placed(t.devices[decided.device], std::move(decided.decision), decided.result_tag);
}

std::optional<AutoPlacement> place_array(const Array& array, const char* what,
                                         const std::function<void(WorkEstimate&)>& shape) {
  if (!array || !array.is_auto()) return std::nullopt;
  if (is_pinned()) {
    WEFT_LOG_INFO(what << ": on " << pinned.selector() << " (pinned)");
    return AutoPlacement{pinned, Expr(NodePtr()), true, nullptr, 0, moves_to(array, pinned) ? array.to(pinned) : array};
  }
  const AutoTable& t = auto_table();
  Analysis a = analyse(array, what, false, t);
  Decided decided = decide(a, what, false, shape, t);
  const Device& d = t.devices[decided.device];
  return AutoPlacement{d, Expr(NodePtr()), true, std::move(decided.decision), decided.result_tag,
                       moves_to(array, d) ? array.to(d) : array};
}

AutoPlacement place_work(const char* what, std::uint64_t signature, const WorkEstimate& work,
                         std::span<const InputResidence> inputs) {
  if (is_pinned()) {
    WEFT_LOG_INFO(what << ": on " << pinned.selector() << " (pinned)");
    return AutoPlacement{pinned, Expr(NodePtr()), true, nullptr, 0};
  }
  const AutoTable& t = auto_table();
  bool remembered = false;
  const std::size_t after = last_worked(t);
  const std::size_t best = t.chooser.choose_cached(signature, work, inputs, &remembered, after);
  WEFT_LOG_INFO(t.chooser.explain(what, work, inputs, signature, after));
  std::shared_ptr<const AutoDecision> decision;
  if (!remembered && t.learn && !any_pending(inputs)) {
    decision = std::make_shared<const AutoDecision>(AutoDecision{
        signature, work, std::vector<InputResidence>(inputs.begin(), inputs.end()), best, std::chrono::steady_clock::now(),
        after});
  }
  return AutoPlacement{t.devices[best], Expr(NodePtr()), true, std::move(decision), 0};
}

void learn_now(const AutoPlacement& placed) {
  if (!placed.decision) return;
  const AutoDecision& d = *placed.decision;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - d.when).count();
  auto_table().chooser.observe(d.signature, d.work, d.inputs, d.device, s, d.after);
}

}  // namespace weft::detail

namespace weft {

Device set_placement_pin(const Device& device) {
  Device previous = detail::pinned;
  detail::pinned = device;
  if (!previous && device) detail::pinned_threads.fetch_add(1, std::memory_order_relaxed);
  if (previous && !device) detail::pinned_threads.fetch_sub(1, std::memory_order_relaxed);
  return previous;
}

Device placement_pin() { return detail::pinned; }

PlacementExplanation explain(const Expr& expr, bool reduction) {
  using namespace detail;
  PlacementExplanation out;
  if (!expr.node()) throw InvalidArgument("explain: an empty expression");
  Leaves leaves;
  count_leaves(*expr.node(), leaves);
  if (leaves.automatic == 0 || leaves.automatic < leaves.all) {
    const Device d = leaves.fixed;
    out.chosen = d ? d.selector() : "";
    out.text = leaves.all == 0 ? "the expression reads no array"
               : leaves.automatic == 0
                   ? "no array of the expression is automatic: it runs on " + out.chosen
                   : "the expression reads an array of a fixed device: it runs on " + out.chosen;
    return out;
  }
  const AutoTable& t = auto_table();
  const char* what = reduction ? "sum" : "eval";
  const Analysis a = analyse(expr, what, reduction, t);
  out.automatic = true;
  out.work = a.work;
  const std::size_t after = last_worked(t);
  // The operations that followed it last time, when it would begin a chain.
  const std::shared_ptr<const ChainSteps> chain = remembered_after(a);
  const std::span<const ChainStep> following = chain ? std::span<const ChainStep>(*chain) : std::span<const ChainStep>();
  out.following = following.size();
  for (std::size_t d = 0; d < t.devices.size(); ++d) {
    out.devices.push_back(t.devices[d].selector());
    out.chain_s.push_back(t.chooser.chain_s(d, a.work, a.inputs(), following, a.signature, after));
    PlacementEstimate e = t.chooser.estimate(d, a.work, a.inputs(), after);
    const double f = t.chooser.correction(a.signature, a.work.elements, d, a.inputs());
    e.launch *= f;
    e.compute *= f;
    e.copy_in *= f;
    e.copy_out *= f;
    out.estimates.push_back(e);
  }
  out.chosen = t.devices[t.chooser.choose(a.work, a.inputs(), a.signature, after, following)].selector();
  out.text = t.chooser.explain(what, a.work, a.inputs(), a.signature, after, following);
  if (pinned) {
    out.pinned = true;
    out.chosen = pinned.selector();
    out.text += " (pinned: " + out.chosen + ")";
  }
  return out;
}

}  // namespace weft
