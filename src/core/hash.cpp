#include "core/hash.hpp"

#include <cstring>

namespace weft::detail {

namespace {
constexpr std::uint64_t k1 = 0x9e3779b97f4a7c15ULL;
constexpr std::uint64_t k2 = 0xc2b2ae3d27d4eb4fULL;
constexpr std::uint64_t k3 = 0x165667b19e3779f9ULL;

inline std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// MurmurHash3's finalizer: every input bit affects every output bit.
inline std::uint64_t fmix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

inline std::uint64_t load64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

void mix_block(std::uint64_t& a, std::uint64_t& b, std::uint64_t k) {
  a = rotl(a ^ (k * k1), 31) * k2;
  b = rotl(b ^ (k * k3), 27) * k1 + a;
}

void mix_bytes(std::uint64_t& a, std::uint64_t& b, const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) mix_block(a, b, load64(p + i));
  if (i < size) {
    std::uint64_t tail = 0;
    std::memcpy(&tail, p + i, size - i);
    mix_block(a, b, tail ^ (static_cast<std::uint64_t>(size - i) << 59));
  }
}
}  // namespace

Hasher& Hasher::update(const void* data, std::size_t size) {
  mix_block(a_, b_, static_cast<std::uint64_t>(size) ^ k3);
  mix_bytes(a_, b_, data, size);
  length_ += size + 1;
  return *this;
}

Digest Hasher::finish() const {
  std::uint64_t a = a_ ^ length_;
  std::uint64_t b = b_ ^ (length_ * k2);
  a += b;
  b += a;
  a = fmix(a);
  b = fmix(b);
  a += b;
  b += a;
  return Digest{a, b};
}

std::string Digest::hex() const {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[static_cast<std::size_t>(15 - i)] = digits[(hi >> (4 * i)) & 15];
    out[static_cast<std::size_t>(31 - i)] = digits[(lo >> (4 * i)) & 15];
  }
  return out;
}

std::uint64_t checksum64(const void* data, std::size_t size) {
  std::uint64_t a = 0x243f6a8885a308d3ULL ^ size;
  std::uint64_t b = 0x13198a2e03707344ULL;
  mix_bytes(a, b, data, size);
  return fmix(a + fmix(b));
}

}  // namespace weft::detail
