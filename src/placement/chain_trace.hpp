// What followed each automatic operation (docs/PLACEMENT.md, "Chains"): device auto decides an
// operation one at a time, but where its result goes next decides what staying costs. On an
// H200 a chain resident on NVIDIA OpenCL, `t = a*b+c; u = sin(t)*a; sum(cumsum(u)*t)` of 10^2
// elements, stayed there step by step (each step cheaper there alone: 12 us against reading
// three inputs to the host, 37) at 63-75 us, where moving its inputs to the host first and
// running the rest on the host's 1 us launches took 42-51.
//
// Each thread's automatic operations form chains: an operation that reads the result of an
// earlier one of the current chain is its next step; one that reads none begins a new chain,
// and the chain just ended is remembered under its first operation's signature and size
// class (its steps, each input classed as a result of an earlier step, an input of the first
// operation, or another array as seen). The next time that operation begins a chain, device
// auto decides it over the whole remembered chain (Chooser::choose with following); the steps
// after it are decided one at a time, as the chain's estimate assumed.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "weft/placement.hpp"

namespace weft::detail {

struct Residence;

/// The steps that followed an operation, as remembered.
using ChainSteps = std::vector<ChainStep>;

/// What note_operation found for an operation.
struct NotedOperation {
  /// The steps that followed it last time, when it begins a chain and a chain was remembered
  /// for it (else none; valid until the next call on this thread).
  const ChainSteps* following = nullptr;
  /// The tag its result gets (Residence::made_by, by tag_result; 0: none).
  std::uint64_t result_tag = 0;
};

/// Notes an automatic decision about to be made on this thread: allocations are the distinct
/// allocations the operation reads (Residence pointers), in the order of inputs (their
/// residences); value: its result is a value read on the host. At most ChainStep::max_inputs
/// inputs are classed: an operation reading more begins no chain and is no step. (An operation
/// not noted, a pinned one, is no step either: its result gets no tag.)
NotedOperation note_operation(std::span<const void* const> allocations, std::span<const InputResidence> inputs,
                              std::uint64_t signature, const WorkEstimate& work, bool value);
/// The chain remembered for an operation reading allocations when it would begin a chain on
/// this thread (none of them a result of the current chain); notes nothing (explain).
std::shared_ptr<const ChainSteps> chain_for(std::span<const void* const> allocations, std::uint64_t signature,
                                            std::int64_t elements);
/// Tags result as made by the operation whose NotedOperation::result_tag is tag (an array result
/// made automatic by mark_automatic; nothing for 0). The tag travels with the operation's
/// placement, not in the thread's state: one look-up of that state per operation.
void tag_result(Residence& result, std::uint64_t tag) noexcept;
/// The chain remembered for an operation of signature and elements' size class (tests, explain).
std::shared_ptr<const ChainSteps> remembered_chain(std::uint64_t signature, std::int64_t elements);
/// Forgets every remembered chain and this thread's current chain (tests).
void forget_chains();

}  // namespace weft::detail
