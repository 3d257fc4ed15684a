// Code paths the kernel generators choose per device, chosen instead by tests: a test runs the
// GPU algorithms on an OpenCL CPU device, or one variant of the single-pass scan, so that each
// path is checked on the machines CI has.
//
//   GeneratorChoices c;
//   c.scan_algorithm = GeneratorChoices::ScanAlgorithm::single_pass;
//   ScopedGeneratorChoices scoped(c);   // until the end of the scope
//   InclusiveScanKernel scan(...);      // a fresh generator: it builds under the choice
//
// The generators read the choices when they first build a kernel for a device and keep that
// kernel, so a test that changes a choice uses a fresh generator object. Reductions over axes
// read reduce_split at every call.
#pragma once

#include <cstdint>

#include "weft/detail/generator_choices.hpp"

namespace weft::detail {

struct GeneratorChoices {
  enum class Toggle : std::uint8_t { automatic, on, off };
  enum class ScanAlgorithm : std::uint8_t { automatic, single_pass, chunked };
  enum class ReduceAlgorithm : std::uint8_t { automatic, fused, two_pass };
  enum class ReduceSplit : std::uint8_t { automatic, always, never };

  /// The single pass (decoupled look-back) or chunked passes, on any device with barriers
  /// (the single pass on an OpenCL CPU device, whose memory is coherent).
  ScanAlgorithm scan_algorithm = ScanAlgorithm::automatic;
  /// on: single-pass tiles publish only their aggregates, so every look-back folds back to
  /// the first tile over several windows.
  Toggle scan_aggregates_only = Toggle::automatic;
  /// on: tiles are handed out by an atomic counter in the order work-groups start, also on
  /// NVIDIA GPUs, which otherwise take them in work-group order.
  Toggle scan_tickets = Toggle::automatic;
  /// NVIDIA GPUs: a warp of its own looks back (on), or the first of the tile's warps after
  /// the tile's copy (off); automatic: its own for values of 4 bytes or less.
  Toggle scan_lookback_warp = Toggle::automatic;
  /// NVIDIA GPUs, 8-byte values: beside their status word in one 16-byte access (on, the
  /// default), or published before it behind a fence (off).
  Toggle scan_status16 = Toggle::automatic;
  /// Tiles ahead that each work-group asks L2 for (where one instruction prefetches a tile);
  /// -1: the device's default.
  int scan_prefetch = -1;
  /// The one-launch reduction (the last work-group combines) or two launches, on any device
  /// with barriers.
  ReduceAlgorithm reduce_algorithm = ReduceAlgorithm::automatic;
  /// Reductions over axes: split long reduced ranges in two stages always, never, or where the
  /// device wants it (GPUs).
  ReduceSplit reduce_split = ReduceSplit::automatic;

  bool operator==(const GeneratorChoices&) const = default;
};

/// The choices now: the defaults (automatic), without a lock, unless a test set some.
GeneratorChoices generator_choices();
void set_generator_choices(const GeneratorChoices& choices);

/// Sets choices for its lifetime and then restores the ones before.
class ScopedGeneratorChoices {
 public:
  explicit ScopedGeneratorChoices(const GeneratorChoices& choices) : before_(generator_choices()) {
    set_generator_choices(choices);
  }
  ~ScopedGeneratorChoices() { set_generator_choices(before_); }
  ScopedGeneratorChoices(const ScopedGeneratorChoices&) = delete;
  ScopedGeneratorChoices& operator=(const ScopedGeneratorChoices&) = delete;

 private:
  GeneratorChoices before_;
};

}  // namespace weft::detail
