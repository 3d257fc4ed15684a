// The number of operator new calls the program has made so far (count_allocations.cpp).
#pragma once

namespace weft::test {
long allocations_so_far();
}  // namespace weft::test
