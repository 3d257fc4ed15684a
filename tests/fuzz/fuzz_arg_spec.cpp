#include <string>
#include <string_view>

#include "targets.hpp"
#include "weft/arg_spec.hpp"
#include "weft/error.hpp"

namespace weft::fuzz {

void arg_spec(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  std::vector<ArgSpec> args;
  try {
    args = parse_arguments(spec);
  } catch (const Error&) {
    return;  // InvalidArgument naming the argument
  }
  // What the generators write back into kernels reads as the same arguments.
  std::string again;
  for (const auto& a : args) again += (again.empty() ? "" : ", ") + a.declaration();
  const auto back = parse_arguments(again);
  WEFT_FUZZ_CHECK(back.size() == args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    WEFT_FUZZ_CHECK(back[i].name == args[i].name);
    WEFT_FUZZ_CHECK(back[i].dtype == args[i].dtype);
    WEFT_FUZZ_CHECK(back[i].pointer == args[i].pointer);
    WEFT_FUZZ_CHECK(back[i].is_const == args[i].is_const);
    WEFT_FUZZ_CHECK(back[i].vector_width == args[i].vector_width);
  }
}

}  // namespace weft::fuzz

WEFT_FUZZ_ENTRY(arg_spec)
