// Division by a kernel argument on the host: in `x / n` and `x % n`, where n is a by-value
// integer parameter the kernel never writes, the host translation reads the divisor from a
// weft_host::UniformDivisor whose reciprocal the launcher computes once per range of
// work-items (host_prelude.hpp), so the division becomes a multiply and a shift, as compilers
// do for constant divisors. Hardware division costs tens of cycles and does not vectorize; the
// compiler cannot do this itself because it does not know the argument is the same for every
// work-item. PoCL's LLVM does not either.
//
//   const UniformDivisors d = uniform_divisors(parsed, kernel);
//   edits += d.edits;  launcher: ::weft_host::run<&k, tls, d.mask>
#pragma once

#include <vector>

#include "dialect/edits.hpp"
#include "dialect/parse.hpp"

namespace weft::detail::dialect {

struct UniformDivisors {
  std::vector<Edit> edits;       // the divisor objects at the body's start, the uses renamed
  unsigned long long mask = 0;   // bit i: parameter i is such a divisor
};

/// The divisors of kernel k (a kernel without barriers: its body runs once per work-item).
UniformDivisors uniform_divisors(const ParsedSource& parsed, const Function& k);

}  // namespace weft::detail::dialect
