// The public face of the program cache (weft/program_cache.hpp): the process-wide
// ProgramCache's directory, listing and housekeeping, in public types.
#include "cache/program_cache.hpp"
#include "weft/program_cache.hpp"

#include "weft/error.hpp"
#include "core/hash.hpp"

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

namespace {

// A record's folder is one directory level under the cache directory, named plainly.
void check_folder(std::string_view folder) {
  bool ok = !folder.empty() && folder.size() <= 32;
  for (char c : folder) {
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
  }
  if (!ok) {
    throw InvalidArgument("cache record folder '" + std::string(folder) +
                          "': expected 1 to 32 letters, digits, '_' or '-'");
  }
}

detail::Digest record_key(std::string_view key_text) {
  detail::Hasher h;
  h.update(std::string_view("weft cache record"));
  h.update(key_text);
  return h.finish();
}

}  // namespace

std::optional<std::string> load_cache_record(std::string_view folder, std::string_view key_text) {
  check_folder(folder);
  return detail::ProgramCache::instance().load(folder, record_key(key_text));
}

bool store_cache_record(std::string_view folder, std::string_view key_text, std::string_view description,
                        std::string_view payload) {
  check_folder(folder);
  return detail::ProgramCache::instance().store(folder, record_key(key_text), description, payload);
}

}  // namespace weft
