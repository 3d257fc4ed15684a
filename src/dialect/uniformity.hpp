// Which control flow of a kernel body differs between the work-items of a group. OpenCL
// requires every barrier to be reached by all work-items of a group or by none; the host
// backend's region splitting (group_fission.hpp) relies on it, so a barrier under a condition
// that depends on the work-item is refused at build, naming the line.
//
//   check_uniform_barriers(parsed, kernel, body);  // throws BuildError
#pragma once

#include <set>
#include <string>

#include "dialect/statements.hpp"

namespace weft::detail::dialect {

/// The names of variables whose value may differ between the work-items of a group (computed
/// from get_global_id/get_local_id, from other such variables, or assigned under control flow
/// that differs).
std::set<std::string> varying_variables(const ParsedSource& parsed, const Stmt& body);

/// Throws BuildError when a barrier of body lies under an if, loop condition, break or
/// continue that may differ between the work-items of a group.
void check_uniform_barriers(const ParsedSource& parsed, const Function& kernel, const Stmt& body);

/// The identifiers an assignment in range writes (`x = `, `x += `, `x[i] = `, `x.y = `,
/// `++x`, `x--`), and for a declaration every name it declares.
std::set<std::string> assigned_names(const ParsedSource& parsed, TokenRange range, bool declaration);

}  // namespace weft::detail::dialect
