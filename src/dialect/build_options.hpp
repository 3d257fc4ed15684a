// Build options: the ones weft accepts on every backend, so a program that builds on one
// device builds on another. Each backend maps the accepted words onto its compiler's flags.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace weft::detail::dialect {

/// Splits build options and checks each is one weft accepts on every backend: -D NAME[=V],
/// -I DIR, -w, -Werror and OpenCL's -cl-* options. Throws InvalidArgument naming the first
/// other one. Returns the words, with "-D X" and "-I X" joined into one.
std::vector<std::string> check_build_options(std::string_view options);

/// For the C++ translations (host, CUDA): the -D macros of options (checked here) as
/// #define lines, with the names C++ reserves renamed as the translated source renames them.
/// The translations paste them after their prelude, not on the compiler's command line, so a
/// macro such as -D N=4 meets the user's source only, never the prelude's templates.
std::string cxx_defines(std::string_view options);

}  // namespace weft::detail::dialect
