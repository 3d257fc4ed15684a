#include "backends/host/host_prebuilt.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "backends/host/host_api.hpp"
#include "dialect/prelude.hpp"
#include "runtime/bounds_check.hpp"
#include "weft/error.hpp"
#include "weft/version.hpp"

// The pack's bytes: host_prebuilt_data.cpp in the library, host_prebuilt_none.cpp in the
// generator that makes the pack.
extern "C" const char weft_host_prebuilt_begin[];
extern "C" const char weft_host_prebuilt_end[];

namespace weft::detail {

namespace {

// "weft host prebuilt 1\n", a count, then per entry the key and the image's offset and size
// (from the start of the pack), then the images. Numbers are 8 bytes, little-endian as the
// host that reads them (the pack is made and read on one architecture).
constexpr std::string_view magic = "weft host prebuilt 1\n";

std::uint64_t read_u64(std::string_view blob, std::size_t at) {
  if (at + 8 > blob.size()) throw Error("the host's prebuilt kernel pack is truncated");
  std::uint64_t v = 0;
  std::memcpy(&v, blob.data() + at, 8);
  return v;
}

void append_u64(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }

bool before(const Digest& a, const Digest& b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }

}  // namespace

const HostPrebuilt& HostPrebuilt::instance() {
  static const HostPrebuilt pack(std::string_view(
      weft_host_prebuilt_begin, static_cast<std::size_t>(weft_host_prebuilt_end - weft_host_prebuilt_begin)));
  return pack;
}

HostPrebuilt::HostPrebuilt(std::string_view blob) {
  if (blob.empty()) return;
  if (blob.substr(0, magic.size()) != magic) throw Error("the host's prebuilt kernel pack has no header");
  const std::uint64_t count = read_u64(blob, magic.size());
  std::size_t at = magic.size() + 8;
  entries_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(count, blob.size() / 32)));
  for (std::uint64_t i = 0; i < count; ++i, at += 32) {
    Entry e;
    e.key.hi = read_u64(blob, at);
    e.key.lo = read_u64(blob, at + 8);
    const std::uint64_t offset = read_u64(blob, at + 16), size = read_u64(blob, at + 24);
    if (offset > blob.size() || size > blob.size() - offset) throw Error("the host's prebuilt kernel pack is truncated");
    e.image = blob.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(size));
    entries_.push_back(e);
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return before(a.key, b.key); });
}

Digest HostPrebuilt::key(std::string_view source, const std::vector<std::string>& flags) {
  // The prelude (about 60 KB) and the toolchain are hashed once per process. The toolchain's
  // identity (compiler, version, CPU, flags) is in the key: a pack built for another CPU or
  // compiler finds nothing, and what it finds is the very code this machine's build makes.
  static const Hasher base = [] {
    Hasher b;
    b.update("weft host prebuilt 2").update(WEFT_VERSION_STRING).update(host_prelude_text());
    const HostToolchain& tc = HostToolchain::get();
    b.update(tc.command.empty() ? "" : tc.command[0]).update(tc.version).update(tc.target_cpu);
    for (const auto& f : tc.flags) b.update(f);
    return b;
  }();
  Hasher h = base;
  h.update(bounds_check_enabled() ? "bounds checked" : "unchecked");
  for (const auto& f : flags) h.update(f);
  h.update(source);
  return h.finish();
}

std::optional<std::string_view> HostPrebuilt::find(const Digest& key) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                             [](const Entry& e, const Digest& k) { return before(e.key, k); });
  if (it == entries_.end() || !(it->key == key)) return std::nullopt;
  return it->image;
}

std::vector<Digest> HostPrebuilt::keys() const {
  std::vector<Digest> out;
  out.reserve(entries_.size());
  for (const auto& e : entries_) out.push_back(e.key);
  return out;
}

std::string HostPrebuilt::batch_infix(std::string_view translation) {
  return "p" + Hasher().update(translation).finish().hex().substr(0, 16);
}

std::string HostPrebuilt::encode(const std::vector<std::pair<Digest, std::string>>& images) {
  std::string out(magic);
  append_u64(out, images.size());
  std::uint64_t offset = out.size() + 32 * images.size();
  std::map<std::string_view, std::uint64_t> stored;  // an image's offset, equal images once
  std::vector<std::string_view> order;
  for (const auto& [key, image] : images) {
    auto [it, fresh] = stored.emplace(image, offset);
    if (fresh) {
      order.push_back(image);
      offset += image.size();
    }
    append_u64(out, key.hi);
    append_u64(out, key.lo);
    append_u64(out, it->second);
    append_u64(out, image.size());
  }
  for (const auto image : order) out += image;
  return out;
}

}  // namespace weft::detail
