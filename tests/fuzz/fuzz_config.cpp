#include <map>
#include <string>
#include <string_view>

#include "targets.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft::fuzz {

void config(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The environment the input describes: NAME=VALUE lines (the first of a name counts).
  std::map<std::string, std::string, std::less<>> env;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    env.emplace(std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
    try {
      const DeviceSelector s = DeviceSelector::parse(line.substr(eq + 1));
      WEFT_FUZZ_CHECK(!s.text().empty());
    } catch (const Error&) {
    }
  }
  try {
    const Config c = Config::parse([&](const char* name) -> const char* {
      const auto it = env.find(std::string_view(name));
      return it == env.end() ? nullptr : it->second.c_str();
    });
    WEFT_FUZZ_CHECK(!c.cache_dir.empty());
    WEFT_FUZZ_CHECK(c.num_threads >= 1);
  } catch (const Error&) {
    // ConfigError naming the variable
  }
}

}  // namespace weft::fuzz

WEFT_FUZZ_ENTRY(config)
