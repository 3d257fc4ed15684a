// `weft calibrate` and `weft devices --costs`: measuring and showing the cost model behind
// device auto (include/weft/placement.hpp, docs/PLACEMENT.md).
#pragma once

#include <string>
#include <vector>

namespace weft::tool {

/// weft calibrate [--quick] [--device SELECTOR]... [--json]
int calibrate_command(const std::vector<std::string>& args);
/// The calibrated model of every device (measured now, quickly, where nothing is stored).
int print_costs(bool json);

}  // namespace weft::tool
