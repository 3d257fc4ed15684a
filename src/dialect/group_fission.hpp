// Kernels that meet at barriers, compiled for the host backend without a thread per
// work-item: the body is split at its barriers into regions, each region becomes a loop over
// the work-items of one group (which the C++ compiler can vectorize), and the private
// variables that live across a barrier move into arrays with one element per work-item
// (loop fission with context arrays, the technique of MCUDA and PoCL). Control flow that
// contains barriers (blocks, if/else, for, while, do) stays outside the loops; OpenCL requires
// it to be the same for every work-item of a group, which check_uniform_barriers enforces.
// __local variables become one array per group; __local parameters arrive as pointers to
// memory the backend gives each group.
//
//   edits += group_kernel_edits(parsed, kernel, edits, set_tls);  // the kernel's new text
#pragma once

#include <string>
#include <vector>

#include "dialect/edits.hpp"
#include "dialect/parse.hpp"

namespace weft::detail::dialect {

/// Why the host cannot run kernel k as a group kernel ("" when it can): a barrier inside a
/// helper function it calls.
std::string host_group_refusal(const ParsedSource& parsed, const Function& k);

/// The edits that turn kernel k's definition into a group function
/// `void k(weft_host::Groups, params...)`. edits are the translation's other edits (renames,
/// vector rewrites), applied inside the new body; set_tls as for plain kernels (helpers read
/// the work-item from a thread-local). Throws BuildError naming the line for a barrier that
/// does not follow OpenCL's rules.
std::vector<Edit> group_kernel_edits(const ParsedSource& parsed, const Function& k, const std::vector<Edit>& edits,
                                     bool set_tls);

}  // namespace weft::detail::dialect
