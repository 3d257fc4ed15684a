// What the region splitting of a group kernel (group_fission.hpp) may do with a variable that
// lives across a barrier instead of keeping one copy per work-item: recompute it where it is
// used (`int lid = get_local_id(0);` never assigned again), or keep one copy for the whole
// group (a loop counter with barriers in the loop, computed from uniform values only). Both
// keep the regions' loops free of loads from context arrays, which the C++ compiler can then
// vectorize.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "dialect/statements.hpp"

namespace weft::detail::dialect {

/// The names the body assigns anywhere other than in their own declaration's initializer,
/// or whose address it takes (`&x`): their values cannot be recomputed.
std::set<std::string> reassigned_names(const ParsedSource& parsed, const Stmt& body);

/// The kernel's by-value parameters (not pointers) that the body never assigns.
std::set<std::string> constant_parameters(const ParsedSource& parsed, const Function& k,
                                          const std::set<std::string>& reassigned);

/// True when range reads only names in `names`, numbers, casts to scalar types and pure
/// built-in functions (work-item functions; with varying false, only those whose value is the
/// same for every work-item of a group: sizes, group ids), with no memory access and no
/// assignment except, where `assignable` is given, to names in it.
bool pure_expression(const ParsedSource& parsed, TokenRange range, const std::set<std::string>& names,
                     bool varying, const std::set<std::string>* assignable = nullptr);

}  // namespace weft::detail::dialect
