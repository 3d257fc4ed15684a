// WEFT_BOUNDS_CHECK's switch (runtime/bounds_check.hpp declares it): in core, beside Config,
// because the dialect translator asks it, and the fuzz targets build the translator alone.
#include <atomic>

#include "runtime/bounds_check.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"
#include "weft/program.hpp"

namespace weft::detail {

namespace {
// -1: not read yet (WEFT_BOUNDS_CHECK decides at the first question), else 0 or 1.
std::atomic<int> mode{-1};
}  // namespace

bool bounds_check_enabled() noexcept {
  int m = mode.load(std::memory_order_relaxed);
  if (m < 0) {
    try {
      m = config().bounds_check ? 1 : 0;
    } catch (const Error&) {
      m = 0;  // a malformed environment is reported by every other entry point
    }
    int expected = -1;
    if (!mode.compare_exchange_strong(expected, m, std::memory_order_relaxed)) m = expected;
  }
  return m == 1;
}

void set_bounds_check(bool on) noexcept { mode.store(on ? 1 : 0, std::memory_order_relaxed); }

}  // namespace weft::detail

namespace weft {
bool bounds_check() { return detail::bounds_check_enabled(); }
void set_bounds_check(bool on) { detail::set_bounds_check(on); }
}  // namespace weft

