#include "dialect/translate.hpp"

#include "dialect/edits.hpp"
#include "dialect/keywords.hpp"

#include "dialect/cuda_translate.hpp"
#include "dialect/host_translate.hpp"
#include "dialect/parse.hpp"
#include "weft/error.hpp"

namespace weft::detail::dialect {

const KernelEntry* Translation::find(std::string_view name) const {
  for (const auto& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

namespace {

// Before any compiler sees the source: some abort the process on a name they cannot store.
void check_kernel_names(const ParsedSource& parsed) {
  for (const Function* k : parsed.kernels()) {
    if (k->name.size() <= max_kernel_name) continue;
    throw BuildError("kernel '" + k->name.substr(0, 32) + "...' (line " + std::to_string(k->line) + ") has a name of " +
                         std::to_string(k->name.size()) + " characters; kernel names may have at most " +
                         std::to_string(max_kernel_name) + " (longer ones break OpenCL drivers such as PoCL)",
                     "", std::string(parsed.source));
  }
}

}  // namespace

Translation translate(std::string_view source, Target target, std::string_view options) {
  const ParsedSource parsed = parse(source);
  check_kernel_names(parsed);
  switch (target) {
    case Target::host:
      return translate_for_host(parsed, cxx_defines(options));
    case Target::cuda:
      return translate_for_cuda(parsed, cxx_defines(options));
    case Target::opencl:
      break;
  }
  check_build_options(options);
  Translation out;
  // As is, but for the GNU keywords of clang-based drivers (kernels keep their OpenCL names).
  std::vector<Edit> renames = opencl_renames(parsed);
  out.text = renames.empty() ? std::string(source) : apply_edits(source, std::move(renames));
  for (const auto* k : parsed.kernels()) {
    const std::string symbol = is_opencl_compiler_reserved(k->name) ? cxx_name(k->name) : k->name;
    out.kernels.push_back({k->name, symbol, k->params, {}});
  }
  return out;
}

}  // namespace weft::detail::dialect
