// Names OpenCL C lets users take that the C++ the host and CUDA compile reserves: C++'s
// keywords and alternative operator spellings (`class`, `new`, `this`, `and` ...) and the
// CUDA built-in variables the translation's own code reads (`threadIdx` ...). The C++
// translations rename them, as identifier tokens, to `weft_kw_<name>` (PoCL's compiler reads
// OpenCL C itself and needs no renaming). Names starting with weft_ or WEFT_ are the
// dialect's own and not renamed: OpenCL sources must not use them.
//
//   cxx_name("class") == "weft_kw_class";  cxx_name("x") == "x"
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dialect/edits.hpp"
#include "dialect/parse.hpp"

namespace weft::detail::dialect {

/// True when C++ (or the code the translations add) reserves name, which OpenCL C does not.
bool is_cxx_reserved(std::string_view name);

/// The name the C++ translations give the OpenCL identifier name.
std::string cxx_name(std::string_view name);

/// text (a fragment: a type, a macro definition) with every reserved identifier renamed.
std::string cxx_text(std::string_view text);

/// Edits renaming every reserved identifier of the source: in code and in macro bodies and
/// conditions; not in strings, nor on #include, #pragma, #error, #warning and #line lines.
std::vector<Edit> keyword_renames(const ParsedSource& parsed);
/// The same for the names reserved_by says are reserved.
std::vector<Edit> keyword_renames(const ParsedSource& parsed, bool (*reserved_by)(std::string_view));

/// True for the names OpenCL C lets users take that OpenCL compilers built on clang (NVIDIA's)
/// still read as GNU keywords (`asm`, `typeof`): the OpenCL translation renames these, as the
/// C++ ones rename theirs (cxx_name gives the new name).
bool is_opencl_compiler_reserved(std::string_view name);
/// The OpenCL translation's renames: those names, but `asm` only where it is a name (not the
/// inline-assembly statement NVIDIA's OpenCL takes, `asm volatile(...)`).
std::vector<Edit> opencl_renames(const ParsedSource& parsed);

}  // namespace weft::detail::dialect
