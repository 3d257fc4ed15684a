#include "dialect/keywords.hpp"

#include <algorithm>
#include <iterator>

namespace weft::detail::dialect {

namespace {

// OpenCL C's own keywords are absent on purpose: bool, true, false, private, inline,
// restrict ... keep their meaning. Names with a double underscore are reserved in OpenCL C too.
constexpr std::string_view reserved[] = {
    // C++20 keywords that are not C99 / OpenCL C keywords
    "alignas", "alignof", "asm", "catch", "char16_t", "char32_t", "char8_t", "class", "co_await",
    "co_return", "co_yield", "concept", "const_cast", "consteval", "constexpr", "constinit",
    "decltype", "delete", "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace",
    "new", "noexcept", "nullptr", "operator", "protected", "public", "reinterpret_cast",
    "requires", "static_assert", "static_cast", "template", "this", "thread_local", "throw",
    "try", "typeid", "typename", "using", "virtual", "wchar_t",
    // the alternative spellings of operators, read as operators by the C++ preprocessor
    "and", "and_eq", "bitand", "bitor", "compl", "not", "not_eq", "or", "or_eq", "xor", "xor_eq",
    // identifiers with a special meaning where they stand (modules, virt-specifiers)
    "final", "import", "module", "override",
    // a keyword of GNU C++ and of NVRTC
    "typeof",
    // CUDA's built-in variables, read by the code the CUDA translation adds to kernels
    "blockDim", "blockIdx", "gridDim", "threadIdx", "warpSize",
};

bool skips_renames(std::string_view directive) {
  return directive == "include" || directive == "include_next" || directive == "pragma" ||
         directive == "error" || directive == "warning" || directive == "line";
}

}  // namespace

bool is_cxx_reserved(std::string_view name) {
  static const std::vector<std::string_view> sorted = [] {
    std::vector<std::string_view> a(std::begin(reserved), std::end(reserved));
    std::sort(a.begin(), a.end());
    return a;
  }();
  return std::binary_search(sorted.begin(), sorted.end(), name);
}

std::string cxx_name(std::string_view name) {
  if (!is_cxx_reserved(name)) return std::string(name);
  return "weft_kw_" + std::string(name);
}

std::string cxx_text(std::string_view text) {
  std::vector<Edit> edits;
  for (const Token& t : tokenize(text)) {
    if (t.kind == TokenKind::identifier && is_cxx_reserved(t.text(text))) {
      edits.push_back({t.begin, t.end, cxx_name(t.text(text))});
    }
  }
  return apply_edits(text, std::move(edits));
}

bool is_opencl_compiler_reserved(std::string_view name) {
  // GNU extension keywords that clang-based OpenCL compilers (NVIDIA's) keep in OpenCL C mode.
  return name == "asm" || name == "typeof";
}

std::vector<Edit> keyword_renames(const ParsedSource& parsed, bool (*reserved_by)(std::string_view)) {
  std::vector<Edit> edits;
  const auto& toks = parsed.tokens;
  bool skip = false;  // inside a directive whose text is not code
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    if (t.directive_start) {
      skip = i + 1 < toks.size() && toks[i + 1].in_directive && !toks[i + 1].directive_start &&
             skips_renames(toks[i + 1].text(parsed.source));
      continue;
    }
    if (!t.in_directive) skip = false;
    if (skip || t.kind != TokenKind::identifier) continue;
    const std::string_view s = t.text(parsed.source);
    if (reserved_by(s)) edits.push_back({t.begin, t.end, cxx_name(s)});
  }
  return edits;
}

std::vector<Edit> keyword_renames(const ParsedSource& parsed) { return keyword_renames(parsed, is_cxx_reserved); }

std::vector<Edit> opencl_renames(const ParsedSource& parsed) {
  std::vector<Edit> edits = keyword_renames(parsed, is_opencl_compiler_reserved);
  // `asm` used as the statement it is on NVIDIA GPUs (`asm volatile(...)`, `asm(...)`: the
  // inline PTX of weft's own kernels, ptx_opencl.cl) stays; only `asm` as a name is renamed.
  const auto& toks = parsed.tokens;
  std::erase_if(edits, [&](const Edit& e) {
    const auto it = std::find_if(toks.begin(), toks.end(), [&](const Token& t) { return t.begin == e.begin; });
    if (it == toks.end() || it->text(parsed.source) != "asm" || it + 1 == toks.end()) return false;
    const std::string_view next = (it + 1)->text(parsed.source);
    return next == "(" || next == "volatile" || next == "__volatile__" || next == "goto" || next == "inline";
  });
  return edits;
}

}  // namespace weft::detail::dialect
