// The dialect's complex helpers (src/kernels/cl/complex.cl) for cfloat and cdouble: what
// generated array kernels and user ElementwiseKernels with complex arguments are given.
#include <string>
#include <string_view>

#include "embedded/weft_embedded.hpp"
#include "weft/detail/generated.hpp"

namespace weft::detail {

namespace {

// complex.cl with its placeholders CT (the complex type) and RT (its real type) replaced:
// every CT or RT not preceded by a letter or digit.
std::string instantiate(std::string_view text, std::string_view ct, std::string_view rt) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool start = i == 0 || !letter(text[i - 1]);
    if (start && i + 1 < text.size() && text[i + 1] == 'T' && (text[i] == 'C' || text[i] == 'R')) {
      out += text[i] == 'C' ? ct : rt;
      ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

}  // namespace

const std::string& complex_helpers(bool with_double) {
  static const std::string single = instantiate(embedded::complex_cl, "cfloat", "float");
  static const std::string both = [] {
    std::string s = single + instantiate(embedded::complex_cl, "cdouble", "double");
    s += "#ifndef WEFT_COMPLEX_CONVERSIONS\n#define WEFT_COMPLEX_CONVERSIONS\n";
    s += "inline cfloat cfloat_fromcdouble(cdouble z) { return cfloat_new((float)z.x, (float)z.y); }\n";
    s += "inline cdouble cdouble_fromcfloat(cfloat z) { return cdouble_new((double)z.x, (double)z.y); }\n#endif\n";
    return s;
  }();
  return with_double ? both : single;
}

}  // namespace weft::detail
