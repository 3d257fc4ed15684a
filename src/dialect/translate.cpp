#include "dialect/translate.hpp"

#include <set>

#include "dialect/bounds_check.hpp"
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

// The C and C++ standard library's headers: OpenCL C has none of them (the dialect's
// built-in functions need no include), and on the C++ backends they would bring the host's
// declarations into the kernel's namespace. A clear error beats a page of compiler messages.
void check_includes(const ParsedSource& parsed) {
  static const std::set<std::string_view> standard = {
      "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "limits.h", "locale.h",
      "math.h", "setjmp.h", "signal.h", "stdarg.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
      "string.h", "tgmath.h", "time.h", "wchar.h", "cmath", "cstdio", "cstdlib", "cstring", "cstdint", "climits",
      "cfloat", "cstddef", "iostream", "vector", "algorithm"};
  const auto& t = parsed.tokens;
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    if (!t[i].directive_start || t[i + 1].text(parsed.source) != "include") continue;
    std::string name;
    const Token& first = t[i + 2];
    if (first.text(parsed.source) == "<") {
      for (std::size_t j = i + 3; j < t.size() && t[j].in_directive && !t[j].directive_start; ++j) {
        if (t[j].text(parsed.source) == ">") break;
        name += t[j].text(parsed.source);
      }
    } else if (first.kind == TokenKind::string) {
      const auto q = first.text(parsed.source);
      name = q.size() >= 2 ? std::string(q.substr(1, q.size() - 2)) : "";
    }
    if (!standard.count(name)) continue;
    throw BuildError("#include <" + name + "> (line " + std::to_string(t[i].line) +
                         "): OpenCL C has no C standard library headers, and weft kernels need none: math "
                         "(sqrt, exp, fabs ...), integer and vector functions, atomics, printf and the limits "
                         "(INT_MAX, FLT_EPSILON, M_PI ...) are built in; remove the line",
                     "", std::string(parsed.source));
  }
}

}  // namespace

namespace {
Translation translate_parsed(const ParsedSource& parsed, std::string_view source, Target target,
                             std::string_view options) {
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
    out.kernels.push_back({k->name, symbol, k->params, {}, false, nullptr});
  }
  return out;
}
}  // namespace

Translation translate(std::string_view source, Target target, std::string_view options) {
  const ParsedSource parsed = parse(source);
  check_kernel_names(parsed);
  check_includes(parsed);
  if (bounds_check_enabled()) {
    const BoundsInstrumented checked = instrument_bounds(parsed);
    if (!checked.plans.empty()) {
      Translation out = translate_parsed(parse(checked.text), checked.text, target, options);
      for (KernelEntry& k : out.kernels) {
        const auto it = checked.plans.find(k.name);
        if (it == checked.plans.end()) continue;
        k.params.resize(k.params.size() - it->second->hidden());  // the hidden ones are the runtime's
        k.bounds = it->second;
      }
      return out;
    }
  }
  return translate_parsed(parsed, source, target, options);
}

}  // namespace weft::detail::dialect
