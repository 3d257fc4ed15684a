// Hashing for program-cache keys and cache-entry checksums. Not cryptographic: it guards
// against corruption and accidental collisions, not against an attacker who can write the
// cache directory (who could replace the compiler just as well).
//
//   weft::detail::Hasher h; h.update(source); h.update(options);
//   std::string key = h.finish().hex();     // 32 hex digits
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace weft::detail {

struct Digest {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  std::string hex() const;
  friend bool operator==(const Digest&, const Digest&) = default;
};

/// Streaming 128-bit hash: two independently seeded 64-bit lanes. Each update() is framed
/// with its length, so ("ab","c") and ("a","bc") differ.
class Hasher {
 public:
  Hasher& update(const void* data, std::size_t size);
  Hasher& update(std::string_view text) { return update(text.data(), text.size()); }
  Hasher& update(std::uint64_t value) { return update(&value, sizeof value); }
  Digest finish() const;

 private:
  std::uint64_t a_ = 0x6a09e667f3bcc908ULL;
  std::uint64_t b_ = 0xbb67ae8584caa73bULL;
  std::uint64_t length_ = 0;
};

/// One-shot 64-bit checksum of a block of bytes.
std::uint64_t checksum64(const void* data, std::size_t size);

}  // namespace weft::detail
