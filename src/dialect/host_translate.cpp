#include "dialect/host_translate.hpp"

#include <map>

#include "dialect/group_fission.hpp"
#include "dialect/keywords.hpp"
#include "dialect/strip_mine.hpp"
#include "dialect/uniform_divisors.hpp"
#include "dialect/vector_rewrites.hpp"

namespace weft::detail::dialect {

Translation translate_for_host(const ParsedSource& parsed, const std::string& defines) {
  Translation out;
  std::vector<Edit> edits = vector_rewrites(parsed);
  const std::vector<Edit> renames = keyword_renames(parsed);
  edits.insert(edits.end(), renames.begin(), renames.end());
  const auto& toks = parsed.tokens;
  const bool set_tls = parsed.helpers_use_work_items();
  // Kernels with barriers or __local memory become group functions (group_fission.hpp); their
  // edits replace the whole definition, so they are made after the others are known.
  std::vector<Edit> group_edits;
  std::map<std::string, unsigned long long> divides;  // kernel symbol -> uniform_divisors' mask
  std::map<std::string, std::string> strips;          // kernel symbol -> its strip function
  for (const auto* k : parsed.kernels()) {
    KernelEntry entry{k->name, cxx_name(k->name), k->params, {}, false, nullptr};
    if (!k->group_feature.empty()) {
      entry.refused = host_group_refusal(parsed, *k);
      entry.groups = entry.refused.empty();
    }
    out.kernels.push_back(entry);
    if (entry.groups) continue;
    // Before this kernel's own edits: the strip function is written from its unedited source.
    if (auto strip = strip_kernel(parsed, *k, edits, entry.symbol)) strips[entry.symbol] = std::move(strip->definition);
    UniformDivisors divisors = uniform_divisors(parsed, *k);
    edits.insert(edits.end(), divisors.edits.begin(), divisors.edits.end());
    divides[entry.symbol] = divisors.mask;
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
  for (const auto* k : parsed.kernels()) {
    if (k->group_feature.empty() || !out.find(k->name)->groups) continue;
    const std::vector<Edit> mine = group_kernel_edits(parsed, *k, edits, set_tls);
    group_edits.insert(group_edits.end(), mine.begin(), mine.end());
  }
  edits.insert(edits.end(), group_edits.begin(), group_edits.end());

  std::string& cpp = out.text;
  cpp.reserve(parsed.source.size() * 2 + 1024);
  // The prelude is included, not pasted: the backend keeps it precompiled beside the file.
  cpp += "#include \"";
  cpp += host_prelude_file;
  cpp += "\"\n";
  cpp += "\n#line 1 \"<build options>\"\n";
  cpp += defines;
  cpp += "namespace weft_kernel {\n#line 1 \"";
  cpp += source_file_name;
  cpp += "\"\n";
  cpp += apply_edits(parsed.source, std::move(edits));
  for (const auto& [symbol, definition] : strips) cpp += definition;
  cpp += "\n}  // namespace weft_kernel\n#line 1 \"weft-launchers\"\n";
  for (const char* m : {"__kernel", "kernel", "__global", "global", "__constant", "constant",
                        "__local", "local", "__private", "private", "restrict"}) {
    cpp += "#undef ";
    cpp += m;
    cpp += '\n';
  }
  for (const auto& k : out.kernels) {
    // Kernels that need work-group synchronization get no entry point (the backend refuses
    // them by name); the program's other kernels still run.
    if (!k.refused.empty()) continue;
    const std::string& s = k.symbol;
    if (k.groups) {
      cpp += "extern \"C\" __attribute__((visibility(\"default\"))) void weft_run_" + s +
             "(void* const* weft_args_, const ::weft_host::Launch* weft_launch_, "
             "::weft_host::size_t weft_begin_, ::weft_host::size_t weft_end_) {\n  ::weft_host::run_groups<&::weft_kernel::" +
             s + "<int>, &::weft_kernel::" + s + "<long long>>(weft_args_, weft_launch_, weft_begin_, weft_end_);\n}\n";
      cpp += "extern \"C\" __attribute__((visibility(\"default\"))) const ::weft_host::KernelInfo "
             "weft_info_" + s + " = ::weft_host::group_info<&::weft_kernel::" + s + "<int>>();\n";
      cpp += "extern \"C\" __attribute__((visibility(\"default\"))) const int weft_groups_" + s + " = 1;\n";
      continue;
    }
    cpp += "extern \"C\" __attribute__((visibility(\"default\"))) void weft_run_" + s +
           "(void* const* weft_args_, const ::weft_host::Launch* weft_launch_, "
           "::weft_host::size_t weft_begin_, ::weft_host::size_t weft_end_) {\n  ";
    if (strips.count(s)) {
      cpp += "::weft_host::run_strips<&::weft_kernel::" + s + ", &::weft_kernel::" + s + "__strip, " +
             std::to_string(divides[s]) + "ull>(weft_args_, weft_launch_, weft_begin_, weft_end_);\n}\n";
    } else {
      cpp += "::weft_host::run<&::weft_kernel::" + s + (set_tls ? ", true, " : ", false, ") +
             std::to_string(divides[s]) + "ull>(weft_args_, weft_launch_, weft_begin_, weft_end_);\n}\n";
    }
    cpp += "extern \"C\" __attribute__((visibility(\"default\"))) const ::weft_host::KernelInfo "
           "weft_info_" + s + " = ::weft_host::info<&::weft_kernel::" + s + ">();\n";
  }
  return out;
}

}  // namespace weft::detail::dialect
