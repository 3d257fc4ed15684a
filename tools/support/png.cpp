#include "tools/support/png.hpp"

#include <algorithm>

#include "weft/error.hpp"

namespace weft::tool {

namespace {

const std::array<std::uint32_t, 256>& crc_table() {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  return table;
}

void put_u32(std::string& out, std::uint32_t v) {
  out += static_cast<char>(v >> 24);
  out += static_cast<char>((v >> 16) & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
  out += static_cast<char>(v & 0xff);
}

// A chunk: length, type, data, and the CRC of type and data.
void put_chunk(std::string& out, std::string_view type, std::string_view data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  out += type;
  out += data;
  put_u32(out, crc32(std::string_view(out).substr(start)));
}

}  // namespace

std::uint32_t crc32(std::string_view bytes, std::uint32_t crc) {
  const auto& t = crc_table();
  crc = ~crc;
  for (const char ch : bytes) crc = t[(crc ^ static_cast<std::uint8_t>(ch)) & 0xff] ^ (crc >> 8);
  return ~crc;
}

std::uint32_t adler32(std::string_view bytes) {
  // 5552 is the most bytes whose sums cannot overflow 32 bits before the modulo.
  std::uint32_t a = 1, b = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t end = std::min(bytes.size(), i + 5552);
    for (; i < end; ++i) {
      a += static_cast<std::uint8_t>(bytes[i]);
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (b << 16) | a;
}

std::string png_palette_bytes(std::size_t width, std::size_t height,
                              std::span<const std::uint8_t> indices, std::span<const Rgb> palette) {
  if (width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff) {
    throw InvalidArgument("PNG: an image of " + std::to_string(width) + "x" + std::to_string(height) +
                          " pixels cannot be written; each side must be 1 to 2^31-1");
  }
  if (palette.empty() || palette.size() > 256) {
    throw InvalidArgument("PNG: a palette holds 1 to 256 colours, not " + std::to_string(palette.size()));
  }
  if (indices.size() != width * height) {
    throw InvalidArgument("PNG: " + std::to_string(indices.size()) + " pixels given for a " +
                          std::to_string(width) + "x" + std::to_string(height) + " image");
  }
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= palette.size()) {
      throw InvalidArgument("PNG: pixel " + std::to_string(i) + " has colour " + std::to_string(indices[i]) +
                            " past the palette's " + std::to_string(palette.size()));
    }
  }

  std::string out = "\x89PNG\r\n\x1a\n";
  std::string ihdr;
  put_u32(ihdr, static_cast<std::uint32_t>(width));
  put_u32(ihdr, static_cast<std::uint32_t>(height));
  ihdr += '\x08';  // bit depth
  ihdr += '\x03';  // colour type: palette
  ihdr += '\x00';  // compression: deflate
  ihdr += '\x00';  // filter method 0
  ihdr += '\x00';  // no interlace
  put_chunk(out, "IHDR", ihdr);
  std::string plte;
  for (const Rgb& c : palette) plte.append(reinterpret_cast<const char*>(c.data()), 3);
  put_chunk(out, "PLTE", plte);

  // The filtered image: each row starts with filter type 0 (none).
  std::string raw;
  raw.reserve(height * (width + 1));
  for (std::size_t y = 0; y < height; ++y) {
    raw += '\0';
    raw.append(reinterpret_cast<const char*>(indices.data()) + y * width, width);
  }
  // A zlib stream of stored deflate blocks (at most 65535 bytes each), then Adler-32.
  std::string z;
  z.reserve(raw.size() + raw.size() / 65535 * 5 + 16);
  z += '\x78';
  z += '\x01';
  std::size_t pos = 0;
  do {
    const std::size_t len = std::min<std::size_t>(65535, raw.size() - pos);
    const bool last = pos + len == raw.size();
    z += static_cast<char>(last ? 1 : 0);
    z += static_cast<char>(len & 0xff);
    z += static_cast<char>(len >> 8);
    z += static_cast<char>(~len & 0xff);
    z += static_cast<char>((~len >> 8) & 0xff);
    z.append(raw, pos, len);
    pos += len;
  } while (pos < raw.size());
  put_u32(z, adler32(raw));
  put_chunk(out, "IDAT", z);
  put_chunk(out, "IEND", "");
  return out;
}

}  // namespace weft::tool
