#include "dialect/translate.hpp"

#include "dialect/cuda_translate.hpp"
#include "dialect/host_translate.hpp"
#include "dialect/parse.hpp"

namespace weft::detail::dialect {

const KernelEntry* Translation::find(std::string_view name) const {
  for (const auto& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

Translation translate(std::string_view source, Target target, std::string_view options) {
  const ParsedSource parsed = parse(source);
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
  out.text = std::string(source);
  for (const auto* k : parsed.kernels()) out.kernels.push_back({k->name, k->name, k->params, {}});
  return out;
}

}  // namespace weft::detail::dialect
