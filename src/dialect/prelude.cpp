#include "dialect/prelude.hpp"

#include <string>

#include "embedded/weft_embedded.hpp"

namespace weft::detail {

namespace {

// The dialect core, in the order its parts build on each other (see core_traits.hpp).
std::string dialect_core() {
  std::string s;
  for (std::string_view part : {embedded::core_traits_hpp, embedded::core_vectors_hpp,
                                embedded::core_conversions_hpp, embedded::core_types_hpp,
                                embedded::core_math_hpp, embedded::core_functions_hpp}) {
    s += part;
  }
  return s;
}

// A backend prelude's head, the dialect core where its marker line stands, its tail, then the
// spellings shared by every C++ translation.
std::string join(std::string_view head, std::string_view prelude, std::string_view after = {}) {
  const std::string_view marker = "//// WEFT-CORE ////\n";
  const auto cut = prelude.find(marker);
  std::string s(head);
  s += prelude.substr(0, cut);
  s += dialect_core();
  s += prelude.substr(cut + marker.size());
  s += after;
  s += embedded::spellings_h;
  return s;
}

}  // namespace

std::string_view host_prelude_text() {
  static const std::string text = join(std::string(embedded::launch_abi_hpp) + "\n", embedded::host_prelude_hpp,
                                   embedded::host_strips_hpp);
  return text;
}

std::string_view cuda_prelude_text() {
  static const std::string text = join("", embedded::cuda_prelude_cuh);
  return text;
}

}  // namespace weft::detail
