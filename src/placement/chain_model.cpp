// A chain's estimate (Chooser::chain_s, include/weft/placement.hpp; docs/PLACEMENT.md, "Chains"):
// the operation being decided on one device, then the operations that followed it the last
// time, each where it would go then, their inputs where the earlier steps leave them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "placement/queued.hpp"
#include "weft/placement.hpp"

namespace weft {

namespace {

// Where a result of the chain is, as the simulation goes: like an InputResidence, with the step
// that made it, and the wait that step paid which a reader queued behind it on its device
// does not need (the queue runs the two back to back).
struct Made {
  InputResidence where;
  std::size_t device = 0;
  double wait_saved = 0;
};

}  // namespace

double Chooser::chain_s(std::size_t d, const WorkEstimate& work, std::span<const InputResidence> inputs,
                        std::span<const ChainStep> following, std::uint64_t signature, std::size_t after) const {
  const auto corrected = [&](std::uint64_t sig, const WorkEstimate& w, std::span<const InputResidence> in,
                             std::size_t dev, std::size_t prev) {
    PlacementEstimate e = estimate(dev, w, in, prev);
    if (sig != 0) {
      const double f = correction(sig, w.elements, dev, in);
      e.launch *= f;
      e.compute *= f;
      e.copy_in *= f;
      e.copy_out *= f;
    }
    return e;
  };
  if (following.empty()) return corrected(signature, work, inputs, d, after).total();
  // Which results a later step reads: their copy back to the host is that reader's to pay.
  std::vector<bool> read_later(following.size() + 1, false);
  for (const ChainStep& s : following) {
    for (const ChainInput& in : s.view()) {
      if (in.from == ChainInput::From::result && in.index < read_later.size()) read_later[in.index] = true;
    }
  }
  const std::uint64_t me = std::uint64_t{1} << d;
  // The operation being decided, on d: its inputs copied there.
  WorkEstimate first = work;
  if (read_later[0]) first.result_to_host = false;
  const PlacementEstimate e0 = corrected(signature, first, inputs, d, after);
  double total = e0.total();
  const DeviceCosts& c0 = devices_[d];
  // The inputs now have copies on d, borrowed host memory's too: the steps of a chain are
  // queued without a wait of the program's between them, and the owner writes borrowed memory
  // only after one (Residence::Copy::fresh_at), so the copy the first step made is read again.
  std::vector<InputResidence> firsts(inputs.begin(), inputs.end());
  for (InputResidence& in : firsts) in.valid_on |= me;
  const bool queued0 = detail::queued_behind(inputs, d);
  std::vector<Made> made;
  made.reserve(following.size() + 1);
  made.push_back({{first.result_to_host ? first.result_bytes : first.bytes_written, me, c0.memory_is_host, me}, d,
                  queued0 && !first.result_to_host ? 0.0 : c0.sync_s});
  std::size_t prev = d;
  std::vector<InputResidence> ins;
  for (std::size_t i = 0; i < following.size(); ++i) {
    const ChainStep& s = following[i];
    ins.clear();
    for (const ChainInput& in : s.view()) {
      if (in.from == ChainInput::From::result && in.index < made.size()) ins.push_back(made[in.index].where);
      else if (in.from == ChainInput::From::first_input && in.index < firsts.size()) ins.push_back(firsts[in.index]);
      else ins.push_back(in.seen);
    }
    WorkEstimate w = s.work;
    if (!s.value) {
      // As device auto decides it: a result made from host data alone is likely read there.
      w.result_to_host = std::all_of(ins.begin(), ins.end(),
                                     [](const InputResidence& r) { return r.on_host || r.valid_on == 0; });
    }
    // The device the step would choose then, alone (as choose() without following).
    std::size_t best = 0;
    double best_t = std::numeric_limits<double>::infinity();
    PlacementEstimate best_e;
    for (std::size_t e = 0; e < devices_.size(); ++e) {
      const PlacementEstimate est = corrected(s.signature, w, ins, e, prev);
      if (est.total() < best_t) {
        best_t = est.total();
        best = e;
        best_e = est;
      }
    }
    double t = best_t;
    if (read_later[i + 1] && !s.value) t -= best_e.copy_out;
    const std::uint64_t bit = std::uint64_t{1} << best;
    // A reader queued behind its producer on the producer's device: the producer's wait is not
    // paid between them.
    for (std::size_t k = 0; k < s.input_count; ++k) {
      const ChainInput& in = s.inputs[k];
      if (in.from != ChainInput::From::result || in.index >= made.size()) continue;
      Made& m = made[in.index];
      if (m.device == best && (m.where.pending_on & bit)) {
        t -= m.wait_saved;
        m.wait_saved = 0;
      }
    }
    total += t;  // (below 0 where the wait saved was the earlier step's: the sum stays above 0)
    // Its inputs now have copies where it ran.
    for (const ChainInput& in : s.view()) {
      if (in.from == ChainInput::From::result && in.index < made.size()) made[in.index].where.valid_on |= bit;
      else if (in.from == ChainInput::From::first_input && in.index < firsts.size()) firsts[in.index].valid_on |= bit;
    }
    const DeviceCosts& c = devices_[best];
    const bool queued = detail::queued_behind(ins, best);
    made.push_back({{w.result_to_host ? w.result_bytes : w.bytes_written, bit, c.memory_is_host, bit}, best,
                    queued && !w.result_to_host ? 0.0 : c.sync_s});
    prev = best;
  }
  return total;
}

}  // namespace weft
