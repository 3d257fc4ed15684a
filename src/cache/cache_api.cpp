// The public face of the program cache (weft/program_cache.hpp): the process-wide
// ProgramCache's directory, listing and housekeeping, in public types.
#include "cache/program_cache.hpp"
#include "weft/program_cache.hpp"

namespace weft {

std::string cache_directory() { return detail::ProgramCache::instance().directory(); }

std::vector<CacheEntry> list_cache_entries() {
  std::vector<CacheEntry> out;
  for (auto& e : detail::ProgramCache::instance().list()) {
    out.push_back({std::move(e.path), std::move(e.backend), std::move(e.key), std::move(e.description),
                   std::move(e.weft_version), e.bytes, e.modified, e.valid, std::move(e.problem)});
  }
  return out;
}

std::size_t clear_cache() { return detail::ProgramCache::instance().clear(); }

std::size_t prune_cache(std::optional<std::chrono::seconds> max_age, std::optional<std::uint64_t> max_bytes) {
  return detail::ProgramCache::instance().prune(max_age, max_bytes);
}

}  // namespace weft
