// What a user sees of a failed build: the compiler's first errors, each with the user's line
// it points at, instead of a log that may run to pages (NVRTC, PoCL and g++ all differ).
#pragma once

#include <string>
#include <string_view>

namespace weft::detail::dialect {

/// Source lines [first, last] of source, numbered, the line `mark` flagged, for messages.
std::string excerpt(std::string_view source, int first, int last, int mark = 0);

/// The first errors of a compiler log ("FILE:LINE:COL: error: ...", FILE matching
/// file_pattern, a regular expression), each followed by the offending source line.
/// Falls back to the log's first lines that mention an error.
std::string summarize_build_log(const std::string& log, std::string_view source,
                                const std::string& file_pattern);

}  // namespace weft::detail::dialect
