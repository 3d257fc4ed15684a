// Device `auto` for arrays: the one place the array layer asks the placement layer
// (src/placement/auto_placement.cpp) where an operation runs. An allocation is automatic when
// Array::to_auto() marked it; an operation all of whose arrays are automatic runs where the
// chooser expects it to finish first, its arrays seen from there (Array::to: copied once, when
// read) and its result automatic too. An operation reading any array of a fixed device keeps
// today's rule (every array on one device), so explicit devices behave as before.
#pragma once

#include <optional>

#include "weft/array.hpp"

namespace weft::detail {

enum class ResultGoes { likely_host, stays };

struct AutoPlacement {
  Device device;  // where the operation runs
  Expr expr;      // the expression with its arrays seen from there
};

/// Nothing when some array of expr is not automatic (or expr holds none); else the chosen
/// device and the expression moved there. what names the operation in the log ("sum", "eval");
/// result_to_host: the result is a value read on the host (a full reduction).
std::optional<AutoPlacement> place_automatically(const Expr& expr, const char* what, bool result_to_host);

/// Marks array's allocation automatic (all its views); returns array.
const Array& mark_automatic(const Array& array);

}  // namespace weft::detail
