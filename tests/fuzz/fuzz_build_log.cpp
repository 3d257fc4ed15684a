#include <string>
#include <string_view>

#include "dialect/translate.hpp"
#include "targets.hpp"

namespace weft::fuzz {

void build_log(const std::uint8_t* data, std::size_t size) {
  const std::string log(reinterpret_cast<const char*>(data), size);
  // The patterns the backends use: the host's and NVRTC's file name, any file (OpenCL).
  for (const char* pattern : {R"(kernel\.cl)", "[^:\\s]*"}) {
    const std::string summary = detail::dialect::summarize_build_log(log, log, pattern);
    WEFT_FUZZ_CHECK(summary.size() <= 64 * (log.size() + 64));
  }
}

}  // namespace weft::fuzz

WEFT_FUZZ_ENTRY(build_log)
