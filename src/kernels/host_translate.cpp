#include "kernels/host_translate.hpp"

#include "embedded/weft_embedded.hpp"

namespace weft::detail {

namespace {
// launch ABI, the host prelude's head, the shared dialect core, the prelude's tail.
std::string join_prelude() {
  const std::string_view prelude = weft::embedded::prelude_hpp;
  const std::string_view marker = "//// WEFT-CORE ////\n";
  const auto cut = prelude.find(marker);
  std::string s;
  s += weft::embedded::launch_abi_hpp;
  s += "\n";
  s += prelude.substr(0, cut);
  s += weft::embedded::dialect_core_hpp;
  s += prelude.substr(cut + marker.size());
  s += weft::embedded::spellings_h;
  return s;
}
}  // namespace

std::string_view host_prelude_text() {
  static const std::string text = join_prelude();
  return text;
}

HostTranslation translate_for_host(const dialect::ParsedSource& parsed) {
  using dialect::Edit;
  HostTranslation out;
  std::vector<Edit> edits = dialect::vector_rewrites(parsed);
  const auto& toks = parsed.tokens;
  for (const auto* k : parsed.kernels()) {
    if (!k->group_feature.empty()) {
      out.refused[k->name] = k->group_feature;
    } else {
      out.kernels.push_back(k->name);
    }
    // __kernel void k(args) -> static inline void k(weft_host::WorkItem weft_wi, args)
    edits.push_back({toks[k->qualifier_token].begin, toks[k->qualifier_token].end,
                     "static inline __attribute__((always_inline))"});
    const auto& open = toks[k->params_open];
    const bool no_params = k->params.empty();
    if (no_params) {
      edits.push_back({open.end, toks[k->params_close].begin, "::weft_host::WorkItem weft_wi"});
    } else {
      edits.push_back({open.end, open.end, "::weft_host::WorkItem weft_wi, "});
    }
  }
  const bool set_tls = parsed.helpers_use_work_items();

  std::string& cpp = out.cpp;
  cpp.reserve(host_prelude_text().size() + parsed.source.size() * 2 + 1024);
  cpp += host_prelude_text();
  cpp += "\nnamespace weft_kernel {\n#line 1 \"";
  cpp += host_source_name;
  cpp += "\"\n";
  cpp += dialect::apply_edits(parsed.source, std::move(edits));
  cpp += "\n}  // namespace weft_kernel\n#line 1 \"weft-launchers\"\n";
  for (const char* m : {"__kernel", "kernel", "__global", "global", "__constant", "constant",
                        "__local", "local", "__private", "private", "restrict"}) {
    cpp += "#undef ";
    cpp += m;
    cpp += '\n';
  }
  for (const auto& name : out.kernels) {
    cpp += "extern \"C\" __attribute__((visibility(\"default\"))) void weft_run_" + name +
           "(void* const* weft_args_, const ::weft_host::Launch* weft_launch_, "
           "std::size_t weft_begin_, std::size_t weft_end_) {\n  ::weft_host::run<&::weft_kernel::" +
           name + (set_tls ? ", true" : ", false") +
           ">(weft_args_, weft_launch_, weft_begin_, weft_end_);\n}\n";
    cpp += "extern \"C\" __attribute__((visibility(\"default\"))) const ::weft_host::KernelInfo "
           "weft_info_" + name + " = ::weft_host::info<&::weft_kernel::" + name + ">();\n";
  }
  return out;
}

}  // namespace weft::detail
