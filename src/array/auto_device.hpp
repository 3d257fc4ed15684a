// Device `auto` for arrays: the one place the array layer asks the placement layer
// (src/placement/auto_placement.cpp) where an operation runs. An allocation is automatic when
// Array::to_auto() marked it; an operation all of whose arrays are automatic runs where the
// chooser expects it to finish first, its arrays seen from there (Array::to: copied once, when
// read) and its result automatic too. In an operation that also reads arrays of a fixed
// device, the automatic arrays follow the first of those; an operation without automatic
// arrays keeps today's rule (every array on one device), so explicit devices behave as before.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "weft/array.hpp"
#include "weft/event.hpp"
#include "weft/placement.hpp"
#include "weft/future.hpp"

namespace weft::detail {

enum class ResultGoes { likely_host, stays };

struct AutoDecision;  // what the chooser decided from (src/placement/auto_placement.cpp)

struct AutoPlacement {
  Device device;  // where the operation runs
  Expr expr;      // the expression with its arrays seen from there
  bool chosen;    // by the chooser (every array automatic): the result is automatic too
  std::shared_ptr<const AutoDecision> decision;  // when chosen
  std::uint64_t result_tag = 0;  // the chain step its result is (placement/chain_trace.hpp), for mark_automatic
  Array array = Array();  // place_array: the array seen from there (expr holds no node)
  bool moves = false;  // place_automatically(.., move = false): expr's arrays are not all seen from device yet
};

/// Online learning (WEFT_PLACEMENT_LEARN=1; off by default): the time from the decision to the
/// operation's completion refines the chooser's estimate for this operation there
/// (Chooser::observe), and what was learnt is stored with the calibration. The completion
/// is read from a marker's end time where markers carry host-clock times (the host backend,
/// CUDA), else, for a reduction whose value the host collects (result), at that get() when
/// the value was still pending. Nothing when the placement was not chosen afresh.
void learn_when_done(const AutoPlacement& placed, const Future<double>* result = nullptr);

/// Nothing when no array of expr is automatic (the common case, decided without allocating).
/// When every array is, the device the chooser picks and the expression moved there; what
/// names the operation in the log ("sum", "eval"); result_to_host: the result is a value read
/// on the host (a full reduction). When some are not, the automatic ones follow the first
/// array of a fixed device (chosen false).
/// shape, when given, turns the estimate of evaluating expr (its inputs, bytes read, operations
/// per element) into the operation's own (a scan's or a sort's, include/weft/placement.hpp):
/// its decisions are remembered apart from evaluation's (what is in the signature).
/// move = false: expr is given as it is, its arrays not seen from the device (moves tells
/// whether some are elsewhere), for a caller that binds them there itself (eval:
/// assign_seen_from, src/array/evaluate.hpp), the tree's copy spared.
std::optional<AutoPlacement> place_automatically(const Expr& expr, const char* what, bool result_to_host,
                                                 const std::function<void(WorkEstimate&)>& shape = {},
                                                 bool move = true);

/// Device auto for an operation that reads one whole array (a sort, unique): place_automatically
/// of Expr(array) without making the expression (an operation's own cost, on the path of every
/// automatic sort), the result's array seen from the device chosen (AutoPlacement::array).
/// Nothing when array is not automatic.
std::optional<AutoPlacement> place_array(const Array& array, const char* what,
                                         const std::function<void(WorkEstimate&)>& shape);

/// Device auto for an operation that reads no array (polygon_mask): the pinned device, else the
/// chooser's choice for work and inputs (host memory it reads), remembered per signature.
/// expr of the result holds no node; chosen is true.
AutoPlacement place_work(const char* what, std::uint64_t signature, const WorkEstimate& work,
                         std::span<const InputResidence> inputs);
/// Online learning of an operation that ran synchronously: the time from placed's decision to
/// now refines the chooser's estimate (Chooser::observe). Nothing when not chosen afresh.
void learn_now(const AutoPlacement& placed);

/// The operations that followed expr's evaluation (or, with reduction, its full reduction) the
/// last time it began a chain on this thread, when it would begin one now
/// (src/placement/chain_trace.hpp); nothing when none is remembered or an array of expr is
/// not automatic.
std::shared_ptr<const std::vector<ChainStep>> chain_after(const Expr& expr, bool reduction);

/// Marks array's allocation automatic (all its views), as the result of the operation placed
/// (its place in the operation's chain: AutoPlacement::result_tag; an operation of several
/// results tags the first only); returns array.
const Array& mark_automatic(const Array& array, std::uint64_t result_tag);

/// Whether expr reads an automatic array (without allocating).
bool reads_automatic(const Expr& expr);
/// expr with each of its automatic arrays seen from device (Array::to: copied when first read
/// there); arrays of fixed devices stay as they are.
Expr seen_from(const Expr& expr, const Device& device);
/// Whether a is an automatic array whose buffer is on another device than device: what
/// seen_from moves (no Device handle made: no reference counted).
bool moves_to(const Array& a, const Device& device);

}  // namespace weft::detail
