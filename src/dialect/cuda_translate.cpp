#include "dialect/cuda_translate.hpp"

#include <algorithm>

#include "dialect/keywords.hpp"
#include "dialect/vector_rewrites.hpp"

namespace weft::detail::dialect {

namespace {

bool is_local(std::string_view t) { return t == "__local" || t == "local"; }
bool is_constant(std::string_view t) { return t == "__constant" || t == "constant"; }

}  // namespace

Translation translate_for_cuda(const ParsedSource& parsed, const std::string& defines) {
  Translation out;
  std::vector<Edit> edits = vector_rewrites(parsed);
  const std::vector<Edit> renames = keyword_renames(parsed);
  edits.insert(edits.end(), renames.begin(), renames.end());
  const auto& toks = parsed.tokens;
  const auto text = [&](std::size_t i) { return toks[i].text(parsed.source); };

  // Tokens in function parameter lists or bodies (everything else is program scope), and in
  // the parameter lists of kernels (rewritten whole below).
  std::vector<char> inside(toks.size(), 0), in_kernel_params(toks.size(), 0);
  for (const auto& f : parsed.functions) {
    std::fill(inside.begin() + static_cast<std::ptrdiff_t>(f.params_open),
              inside.begin() + static_cast<std::ptrdiff_t>(f.body_close) + 1, 1);
    if (f.is_kernel) {
      std::fill(in_kernel_params.begin() + static_cast<std::ptrdiff_t>(f.params_open),
                in_kernel_params.begin() + static_cast<std::ptrdiff_t>(f.params_close) + 1, 1);
    }
  }

  const bool shared_launch = parsed.helpers_use_work_items();
  for (const auto* k : parsed.kernels()) {
    out.kernels.push_back({k->name, cxx_name(k->name), k->params, {}, false, nullptr});
    edits.push_back({toks[k->qualifier_token].begin, toks[k->qualifier_token].end, "extern \"C\" __global__"});
    std::string prologue = " const ::weft_cuda::WorkItem weft_wi{weft_launch};";
    if (shared_launch) {
      prologue += " if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) "
                  "::weft_kernel::weft_launch_shared = weft_launch; __syncthreads();";
    }
    for (std::size_t i = 0; i < k->params.size(); ++i) {
      const auto& p = k->params[i];
      if (p.space != AddressSpace::local) continue;
      const auto [first, last] = k->param_tokens[i];
      // This edit covers the parameter's tokens, and with them their renames: the names
      // are renamed here.
      const std::string type = cxx_text(p.type_name);
      edits.push_back({toks[first].begin, toks[last].end, "unsigned weft_local_" + p.name});
      prologue += " " + type + " " + cxx_name(p.name) + " = reinterpret_cast<" + type +
                  ">(::weft_kernel::weft_dynamic_shared + weft_local_" + p.name + ");";
    }
    const auto& open = toks[k->params_open];
    if (k->params.empty()) {
      edits.push_back({open.end, toks[k->params_close].begin, "const ::weft_cuda::Launch weft_launch"});
    } else {
      edits.push_back({open.end, open.end, "const ::weft_cuda::Launch weft_launch, "});
    }
    edits.push_back({toks[k->body_open].end, toks[k->body_open].end, prologue});
  }

  for (std::size_t i = 0; i < toks.size(); ++i) {
    const auto t = text(i);
    if (toks[i].kind != TokenKind::identifier) continue;
    if (is_local(t)) {
      if (in_kernel_params[i]) continue;  // replaced with the parameter
      // A pointer declaration loses the qualifier; a variable (an array) becomes __shared__.
      bool pointer = false;
      for (std::size_t j = i + 1; j < toks.size(); ++j) {
        const auto u = text(j);
        if (u == ";" || u == "=" || u == "," || u == ")" || u == "[" || u == "{") break;
        if (u == "*") {
          pointer = true;
          break;
        }
      }
      edits.push_back({toks[i].begin, toks[i].end, pointer ? "" : "__shared__"});
    } else if (is_constant(t)) {
      edits.push_back({toks[i].begin, toks[i].end, inside[i] ? "" : "__constant__"});
    } else if (t == "global" || t == "private") {
      edits.push_back({toks[i].begin, toks[i].end, ""});
    }
  }

  std::string& cu = out.text;
  cu.reserve(cuda_prelude_text().size() + parsed.source.size() * 2 + 256);
  cu += cuda_prelude_text();
  cu += "\n#line 1 \"<build options>\"\n";
  cu += defines;
  cu += "namespace weft_kernel {\n#line 1 \"";
  cu += source_file_name;
  cu += "\"\n";
  cu += apply_edits(parsed.source, std::move(edits));
  cu += "\n}  // namespace weft_kernel\n";
  return out;
}

}  // namespace weft::detail::dialect
