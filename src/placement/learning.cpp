// Online learning (Chooser::observe, correction, teach; include/weft/placement.hpp,
// docs/PLACEMENT.md "Learning online"): measured / predicted ratios per operation, size class,
// device and where the inputs come from, their median the correction.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "placement/learnt.hpp"
#include "weft/error.hpp"
#include "weft/placement.hpp"

namespace weft {

using detail::class_key;
using detail::decision_slots;
using detail::learnt_key;
using detail::mix;
using detail::size_class;

std::uint64_t Chooser::learnt_signature(std::uint64_t signature, std::size_t d,
                                        std::span<const InputResidence> inputs) const noexcept {
  // The memories an input is copied from to reach d, as estimate() copies it: from another
  // device's (any that holds it), or from the host's to a device with its own memory.
  const std::uint64_t me = std::uint64_t{1} << d;
  const bool host_memory = devices_[d].memory_is_host;
  std::uint64_t from = 0;
  bool from_host = false;
  for (const InputResidence& in : inputs) {
    if (in.valid_on & me) continue;
    if (in.on_host) {
      from_host |= !host_memory;
      continue;
    }
    from |= in.valid_on;
  }
  if (from == 0 && !from_host) return signature;  // (in place: the operation's own signature)
  std::uint64_t h = mix(signature, from_host ? 0x486f73744d656d00ULL : 0x436f707900000000ULL);
  for (std::size_t s = 0; s < identity_hash_.size(); ++s) {
    if (from & (std::uint64_t{1} << s)) h = mix(h, identity_hash_[s]);
  }
  return h;
}

double Chooser::correction(std::uint64_t signature, std::int64_t elements, std::size_t d,
                           std::span<const InputResidence> inputs) const {
  if (!learnt_->any.load(std::memory_order_acquire) || d >= devices_.size()) return 1.0;
  const std::uint64_t learnt_as = learnt_signature(signature, d, inputs);
  std::lock_guard lock(learnt_->mutex);
  const auto it = learnt_->factor.find(learnt_key(learnt_as, elements, d));
  return it == learnt_->factor.end() || it->second.factor == 0 ? 1.0 : it->second.factor;
}

std::size_t Chooser::timed_runs(std::uint64_t signature, std::int64_t elements, std::size_t d,
                                std::span<const InputResidence> inputs) const {
  if (d >= devices_.size()) return 0;
  const std::uint64_t learnt_as = learnt_signature(signature, d, inputs);
  std::lock_guard lock(learnt_->mutex);
  const auto it = learnt_->factor.find(learnt_key(learnt_as, elements, d));
  return it == learnt_->factor.end() ? 0 : it->second.seen + (it->second.warmed ? 1 : 0);
}

std::vector<LearntFactor> Chooser::learnt(std::size_t d) const {
  std::vector<LearntFactor> out;
  std::lock_guard lock(learnt_->mutex);
  for (const auto& [key, e] : learnt_->factor) {
    if (e.device == d && e.factor > 0) out.push_back({e.signature, e.size_class, e.factor});
  }
  std::sort(out.begin(), out.end(), [](const LearntFactor& a, const LearntFactor& b) {
    return a.signature != b.signature ? a.signature < b.signature : a.size_class < b.size_class;
  });
  return out;
}

void Chooser::teach(std::size_t d, std::span<const LearntFactor> factors) const {
  if (d >= devices_.size()) throw InvalidArgument("Chooser::teach: device index " + std::to_string(d) + " is not in the table");
  bool any = false;
  {
    std::lock_guard lock(learnt_->mutex);
    for (const LearntFactor& f : factors) {
      if (!(f.factor > 0) || !std::isfinite(f.factor)) continue;
      // (What was stored weighs as one ratio of the window: runs here confirm or move it.)
      Learnt::Entry e{.signature = f.signature, .size_class = f.size_class, .device = d, .factor = f.factor};
      e.add(f.factor);
      learnt_->factor[class_key(f.signature, f.size_class, d)] = e;
      any = true;
    }
  }
  if (any) {
    learnt_->any.store(true, std::memory_order_release);
    forget();
  }
}

bool Chooser::observe(std::uint64_t signature, const WorkEstimate& work, std::span<const InputResidence> inputs,
                      std::size_t d, double seconds, std::size_t after) const {
  // (Predicted as decided: with the switch the decision counted, which is not the operation's
  // to learn.)
  const double predicted = estimate(d, work, inputs, after).total();
  if (!(predicted > 0) || !std::isfinite(predicted) || !(seconds > 0) || !std::isfinite(seconds) || d >= devices_.size()) {
    return false;
  }
  bool moved = false;
  {
    // The first run of an operation on a device in this process usually includes building or
    // loading its kernel there: it is not counted, also where a stored factor was taught. The
    // factor is the median of the last few ratios, from the third on.
    const std::uint64_t learnt_as = learnt_signature(signature, d, inputs);
    std::lock_guard lock(learnt_->mutex);
    const auto sc = static_cast<std::uint32_t>(size_class(work.elements));
    Learnt::Entry& e = learnt_->factor.try_emplace(learnt_key(learnt_as, work.elements, d),
                                                  Learnt::Entry{.signature = learnt_as, .size_class = sc, .device = d})
                           .first->second;
    if (e.seen >= Learnt::settled) return false;
    if (!e.warmed) {
      e.warmed = true;
    } else {
      e.add(seconds / predicted);
      if (e.seen >= Learnt::enough) {
        const double before = e.factor;
        e.factor = e.median();
        // The decision is made again (and the operation timed again) only while the factor moves.
        if (before != 0 && std::abs(e.factor / before - 1) < 0.1) return false;
        moved = true;
      }
    }
  }
  learnt_->any.store(true, std::memory_order_release);
  // A counted factor moved: every remembered decision is made again, those made with an input
  // pending somewhere too (InputResidence::pending_on: their keys differ from these inputs').
  if (moved) {
    forget();
    return moved;
  }
  // The decision is remembered per device last given work: each is made again.
  decisions_[decision_key(signature, work, inputs, no_device) % decision_slots].store(0, std::memory_order_relaxed);
  for (std::size_t a = 0; a < devices_.size(); ++a) {
    decisions_[decision_key(signature, work, inputs, a) % decision_slots].store(0, std::memory_order_relaxed);
  }
  return moved;
}

}  // namespace weft
