#include "backends/cuda/cuda_source.hpp"

#include <optional>
#include <string>
#include <vector>

#include "dialect/tokenize.hpp"
#include "dialect/types.hpp"
#include "weft/dtype.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

using dialect::Token;
using dialect::TokenKind;

/// BuildError for the source, as the dialect's parser raises it (no compiler log).
[[noreturn]] void refuse(std::string_view source, const std::string& message) {
  throw BuildError(message, "", std::string(source));
}

/// The dtype of a scalar C type spelled by words ("unsigned long long", "double", "int32_t").
std::optional<DType> scalar_of(const std::vector<std::string_view>& words) {
  bool is_unsigned = false, is_signed = false;
  int longs = 0;
  std::string_view base;
  for (auto w : words) {
    if (w == "unsigned") is_unsigned = true;
    else if (w == "signed") is_signed = true;
    else if (w == "long") ++longs;
    else if (!base.empty()) return std::nullopt;
    else base = w;
  }
  if (base.empty() || base == "int") {
    if (longs > 0) return is_unsigned ? DType::uint64 : DType::int64;  // LP64: long is 64 bits
    if (base.empty() && !is_unsigned && !is_signed) return std::nullopt;
    return is_unsigned ? DType::uint32 : DType::int32;
  }
  if (longs > 0) return std::nullopt;  // long double, long char ...
  if (base == "char") return is_unsigned ? DType::uint8 : DType::int8;
  if (base == "short") return is_unsigned ? DType::uint16 : DType::int16;
  if (is_unsigned || is_signed) return std::nullopt;
  static constexpr std::pair<std::string_view, DType> named[] = {
      {"float", DType::float32}, {"double", DType::float64}, {"bool", DType::bool_},
      {"int8_t", DType::int8}, {"int16_t", DType::int16}, {"int32_t", DType::int32}, {"int64_t", DType::int64},
      {"uint8_t", DType::uint8}, {"uint16_t", DType::uint16}, {"uint32_t", DType::uint32},
      {"uint64_t", DType::uint64}, {"size_t", DType::uint64}, {"ptrdiff_t", DType::int64},
      {"uchar", DType::uint8}, {"ushort", DType::uint16}, {"uint", DType::uint32}, {"ulong", DType::uint64}};
  for (const auto& [n, t] : named) {
    if (base == n) return t;
  }
  return std::nullopt;
}

bool is_qualifier(std::string_view w) {
  return w == "const" || w == "volatile" || w == "__restrict__" || w == "__restrict" || w == "restrict";
}

/// One parameter from its tokens [first, last].
KernelArgInfo read_param(std::string_view src, const std::vector<Token>& t, std::size_t first, std::size_t last,
                         const std::string& kernel) {
  KernelArgInfo p;
  std::size_t name_at = last;
  while (name_at > first && t[name_at].kind != TokenKind::identifier) --name_at;
  if (t[name_at].kind != TokenKind::identifier || name_at == first) {
    refuse(src, "CUDA kernel '" + kernel + "' (line " + std::to_string(t[first].line) +
                     "): a parameter without a name or a type: '" +
                     std::string(src.substr(t[first].begin, t[last].end - t[first].begin)) + "'");
  }
  p.name = std::string(t[name_at].text(src));
  std::vector<std::string_view> words;
  for (std::size_t i = first; i < name_at; ++i) {
    const auto w = t[i].text(src);
    p.type_name += (p.type_name.empty() || w == "*" ? "" : " ") + std::string(w);
    if (w == "*") p.is_pointer = true;
    else if (w == "&" || w == "[") {
      refuse(src, "CUDA kernel '" + kernel + "' (line " + std::to_string(t[i].line) + "): parameter '" + p.name +
                       "' is a reference or an array; kernels take pointers and values");
    } else if (t[i].kind == TokenKind::identifier && !is_qualifier(w)) words.push_back(w);
  }
  if (p.is_pointer) p.space = AddressSpace::global;
  if (words.size() == 1 && dialect::is_vector_type_name(words[0])) {
    const auto [scalar, width] = dialect::split_vector_type(words[0]);
    p.dtype = scalar_of({scalar});
    p.vector_width = static_cast<unsigned>(width);
  } else {
    p.dtype = scalar_of(words);
  }
  // CUDA's vectors of 3 are 3 elements long (OpenCL's are 4).
  if (!p.is_pointer && p.dtype) p.value_size = size_of(*p.dtype) * p.vector_width;
  return p;
}

}  // namespace

dialect::Translation read_cuda_source(std::string_view source, std::string_view options) {
  dialect::Translation tr;
  tr.text = dialect::cxx_defines(options) + "#line 1 \"" + dialect::source_file_name + "\"\n" + std::string(source);
  const std::vector<Token> t = dialect::tokenize(source);
  const auto is = [&](std::size_t i, std::string_view s) { return i < t.size() && t[i].text(source) == s; };
  // Braces: whether each open one is an extern "C" block (kernels in it have C linkage).
  std::vector<bool> braces;
  std::size_t statement_start = 0;  // first token of the current declaration
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].in_directive) continue;
    const auto w = t[i].text(source);
    if (w == "{") {
      const bool extern_block = i >= 2 && is(i - 2, "extern") && is(i - 1, "\"C\"");
      braces.push_back(extern_block);
      statement_start = i + 1;
      continue;
    }
    if (w == "}") {
      if (!braces.empty()) braces.pop_back();
      statement_start = i + 1;
      continue;
    }
    if (w == ";") {
      statement_start = i + 1;
      continue;
    }
    if (w != "__global__") continue;
    // A kernel: its parameter list is the last parenthesized group before its body.
    std::size_t j = i + 1, open = 0, close = 0;
    int depth = 0;
    for (; j < t.size(); ++j) {
      const auto x = t[j].text(source);
      if (x == "(") {
        if (depth++ == 0) open = j;
      } else if (x == ")") {
        if (--depth == 0) close = j;
      } else if (depth == 0 && (x == "{" || x == ";")) {
        break;
      }
    }
    if (j >= t.size() || close == 0 || open == 0 || t[open - 1].kind != TokenKind::identifier) {
      refuse(source, "CUDA source line " + std::to_string(t[i].line) + ": a __global__ function weft cannot read");
    }
    const std::string name(t[open - 1].text(source));
    bool c_linkage = false, is_template = false;
    for (std::size_t k = statement_start; k < i; ++k) {
      if (is(k, "extern") && is(k + 1, "\"C\"")) c_linkage = true;
      if (is(k, "template")) is_template = true;
    }
    bool in_extern_block = !braces.empty();
    for (bool b : braces) in_extern_block = in_extern_block && b;
    if (is_template) {
      refuse(source, "CUDA kernel '" + name + "' (line " + std::to_string(t[i].line) +
                       ") is a template: weft finds kernels by their C name; write one extern \"C\" kernel per type");
    }
    if (!c_linkage && !in_extern_block) {
      refuse(source, "CUDA kernel '" + name + "' (line " + std::to_string(t[i].line) +
                       ") has C++ linkage, so its name is mangled: declare it extern \"C\" __global__ void " + name +
                       "(...) or put the kernels in extern \"C\" { ... } (as CuPy's RawModule needs too)");
    }
    if (t[j].text(source) == "{") {  // a definition (a declaration alone adds nothing)
      dialect::KernelEntry k;
      k.name = k.symbol = name;
      std::size_t first = open + 1;
      int inner = 0;
      for (std::size_t q = open + 1; q <= close; ++q) {
        const auto x = t[q].text(source);
        if (x == "(" || x == "<" || x == "[") ++inner;
        else if ((x == ")" || x == ">" || x == "]") && q != close) --inner;
        if ((x == "," && inner == 0) || q == close) {
          const bool just_void = q == first + 1 && is(first, "void");
          if (q > first && !just_void) k.params.push_back(read_param(source, t, first, q - 1, name));
          first = q + 1;
        }
      }
      if (tr.find(name)) refuse(source, "CUDA source defines kernel '" + name + "' twice");
      tr.kernels.push_back(std::move(k));
    }
    i = j - 1;  // the body's brace is read by the loop
    statement_start = j;
  }
  return tr;
}

}  // namespace weft::detail
