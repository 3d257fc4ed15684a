#include <cstring>
#include <string>
#include <string_view>

#include "cache/program_cache.hpp"
#include "core/hash.hpp"
#include "targets.hpp"

namespace weft::fuzz {

void cache_entry(const std::uint8_t* data, std::size_t size) {
  std::string file(reinterpret_cast<const char*>(data), size);
  if (!file.empty() && file[0] != 'W') {
    // An entry around the rest: magic, header size, payload size, checksum, header, payload.
    // The header is the text up to the first blank line (or all of it).
    const std::string body = file.substr(1);
    const auto blank = body.find("\n\n");
    const std::uint64_t header_size = blank == std::string::npos ? body.size() : blank + 1;
    const std::uint64_t payload_size = body.size() - header_size;
    const std::uint64_t sum = detail::checksum64(body.data(), body.size());
    file = "WEFTPRG1";
    for (std::uint64_t v : {header_size, payload_size, sum}) {
      char b[8];
      std::memcpy(b, &v, 8);
      file.append(b, 8);
    }
    file += body;
  }
  std::string payload;
  detail::CacheEntryInfo info;
  const bool ok = detail::ProgramCache::decode(file, &payload, &info);
  WEFT_FUZZ_CHECK(ok || !info.problem.empty());
  if (ok) WEFT_FUZZ_CHECK(payload.size() < file.size());
}

}  // namespace weft::fuzz

WEFT_FUZZ_ENTRY(cache_entry)
