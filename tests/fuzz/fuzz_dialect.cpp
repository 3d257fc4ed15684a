#include <string>
#include <string_view>

#include "dialect/keywords.hpp"
#include "dialect/translate.hpp"
#include "targets.hpp"
#include "weft/error.hpp"

namespace weft::fuzz {

namespace {
bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}
}  // namespace

void dialect(const std::uint8_t* data, std::size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  std::string_view options;
  if (source.rfind("//opts:", 0) == 0) {
    const auto nl = source.find('\n');
    options = source.substr(7, nl == std::string_view::npos ? std::string_view::npos : nl - 7);
  }
  using detail::dialect::Target;
  for (Target t : {Target::host, Target::cuda, Target::opencl}) {
    try {
      const auto tr = detail::dialect::translate(source, t, options);
      for (const auto& k : tr.kernels) {
        WEFT_FUZZ_CHECK(is_identifier(k.name));
        WEFT_FUZZ_CHECK(k.name.size() <= detail::dialect::max_kernel_name);
        const bool renamed = t != Target::opencl || detail::dialect::is_opencl_compiler_reserved(k.name);
        WEFT_FUZZ_CHECK(k.symbol == (renamed ? detail::dialect::cxx_name(k.name) : k.name));
        WEFT_FUZZ_CHECK(tr.find(k.name) != nullptr);
      }
      // OpenCL: the source as it is, but for the GNU keywords clang-based drivers reserve.
      if (t == Target::opencl && tr.text != source) {
        WEFT_FUZZ_CHECK(!detail::dialect::opencl_renames(detail::dialect::parse(source)).empty());
      }
    } catch (const Error&) {
      // BuildError for source the dialect cannot read, InvalidArgument for options.
    }
  }
}

}  // namespace weft::fuzz

WEFT_FUZZ_ENTRY(dialect)
