// Online learning's exploration (Chooser::explore, include/weft/placement.hpp; docs/PLACEMENT.md,
// "Learning online"): learning times only the device an operation runs on, so an estimate too
// pessimistic for a device the chooser never picks stayed wrong. Where another device's estimate
// is close to the choice's, the operation is tried there a few times and both are then
// compared by what they took in this process.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "weft/placement.hpp"

namespace weft {

std::size_t Chooser::explore(std::size_t best, const WorkEstimate& work, std::span<const InputResidence> inputs,
                             std::uint64_t signature, std::size_t after, std::span<const ChainStep> following) const {
  if (signature == 0 || best >= devices_.size()) return best;
  const auto cost = [&](std::size_t d) {
    if (!following.empty()) return chain_s(d, work, inputs, following, signature, after);
    return estimate(d, work, inputs, after).total() * correction(signature, work.elements, d, inputs);
  };
  const double limit = explore_margin * cost(best);
  std::size_t pick = best;
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    if (d == best || timed_runs(signature, work.elements, d, inputs) >= explore_runs) continue;
    const double t = cost(d);
    if (t <= limit && t < least) {
      least = t;
      pick = d;
    }
  }
  return pick;
}

}  // namespace weft
