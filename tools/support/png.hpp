// A minimal PNG encoder for images meant for a person to look at (`weft polygon --png`):
// 8-bit palette images in stored (uncompressed) deflate blocks, so it needs no zlib.
//
//   std::string png = weft::tool::png_palette_bytes(w, h, indices, {{0, 0, 0}, {255, 255, 255}});
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace weft::tool {

/// CRC-32 as PNG and zlib define it (polynomial 0xEDB88320), continued from crc.
std::uint32_t crc32(std::string_view bytes, std::uint32_t crc = 0);
/// Adler-32 as zlib defines it.
std::uint32_t adler32(std::string_view bytes);

using Rgb = std::array<std::uint8_t, 3>;

/// A PNG of width x height pixels, each an index into palette (at most 256 colours),
/// row-major. Throws InvalidArgument for an empty image, an empty or oversized palette, or
/// an index past its end.
std::string png_palette_bytes(std::size_t width, std::size_t height,
                              std::span<const std::uint8_t> indices, std::span<const Rgb> palette);

}  // namespace weft::tool
