// The file formats weft writes itself: .npy (numpy.load reads it) and palette PNG.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tools/support/npy.hpp"
#include "tools/support/png.hpp"
#include "weft/error.hpp"

namespace weft::tool {
namespace {

std::uint32_t be32(const std::string& s, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

TEST(Npy, HeaderAsNumpyWritesItAndTheDataAfterIt) {
  const std::vector<std::uint8_t> data{1, 0, 1, 1, 0, 0};
  const std::string f = npy_bytes(DType::uint8, Shape{2, 3}, data.data());
  ASSERT_GE(f.size(), 10u);
  EXPECT_EQ(f.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header_len = static_cast<unsigned char>(f[8]) | static_cast<unsigned char>(f[9]) << 8;
  EXPECT_EQ((10 + header_len) % 64, 0u) << "data must start on a 64-byte boundary";
  const std::string header = f.substr(10, header_len);
  EXPECT_EQ(header.rfind("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u) << header;
  EXPECT_EQ(header.back(), '\n');
  ASSERT_EQ(f.size(), 10 + header_len + data.size());
  EXPECT_EQ(0, std::memcmp(f.data() + 10 + header_len, data.data(), data.size()));
}

TEST(Npy, DescrAndShapesOfOtherKinds) {
  EXPECT_EQ(npy_descr(DType::float32), "<f4");
  EXPECT_EQ(npy_descr(DType::int64), "<i8");
  EXPECT_EQ(npy_descr(DType::bool_), "|b1");
  EXPECT_EQ(npy_descr(DType::uint16), "<u2");
  const float v[3] = {1, 2, 3};
  const std::string one_d = npy_bytes(DType::float32, Shape{3}, v);
  EXPECT_NE(one_d.find("'shape': (3,), }"), std::string::npos);
  const std::string scalar = npy_bytes(DType::float32, Shape{}, v);
  EXPECT_NE(scalar.find("'shape': (), }"), std::string::npos);
  EXPECT_EQ(scalar.size() % 64, 4u);  // one float after an aligned header
}

TEST(Png, ChecksumsMatchTheirKnownValues) {
  EXPECT_EQ(crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(crc32("IEND"), 0xAE426082u);
  EXPECT_EQ(crc32("6789", crc32("12345")), 0xCBF43926u);
  EXPECT_EQ(adler32("Wikipedia"), 0x11E60398u);
  EXPECT_EQ(adler32(""), 1u);
  // Past the 5552-byte block where the sums must be reduced.
  const std::string big(100000, '\xff');
  std::uint32_t a = 1, b = 0;
  for (const char c : big) {
    a = (a + static_cast<unsigned char>(c)) % 65521;
    b = (b + a) % 65521;
  }
  EXPECT_EQ(adler32(big), (b << 16) | a);
}

// Reads back what png_palette_bytes wrote: every chunk's CRC, the header, the palette, and
// the stored deflate blocks' pixels and Adler-32.
TEST(Png, DecodesBackToThePixels) {
  const std::size_t w = 300, h = 251;  // rows of 301 bytes: several 65535-byte blocks
  std::vector<std::uint8_t> px(w * h);
  for (std::size_t i = 0; i < px.size(); ++i) px[i] = static_cast<std::uint8_t>((i * 7 + i / w) % 3);
  const Rgb palette[] = {{0, 0, 0}, {255, 0, 0}, {1, 2, 3}};
  const std::string f = png_palette_bytes(w, h, px, palette);
  ASSERT_EQ(f.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  std::size_t at = 8;
  std::string idat, types;
  while (at < f.size()) {
    const std::uint32_t len = be32(f, at);
    const std::string type = f.substr(at + 4, 4);
    const std::string data = f.substr(at + 8, len);
    EXPECT_EQ(be32(f, at + 8 + len), crc32(f.substr(at + 4, 4 + len))) << type;
    types += type + " ";
    if (type == "IHDR") {
      EXPECT_EQ(be32(data, 0), w);
      EXPECT_EQ(be32(data, 4), h);
      EXPECT_EQ(data.substr(8), std::string("\x08\x03\x00\x00\x00", 5));
    } else if (type == "PLTE") {
      EXPECT_EQ(data, std::string("\x00\x00\x00\xff\x00\x00\x01\x02\x03", 9));
    } else if (type == "IDAT") {
      idat += data;
    }
    at += 12 + len;
  }
  EXPECT_EQ(types, "IHDR PLTE IDAT IEND ");
  ASSERT_GE(idat.size(), 6u);
  EXPECT_EQ((static_cast<unsigned char>(idat[0]) * 256 + static_cast<unsigned char>(idat[1])) % 31, 0);
  std::string raw;
  std::size_t p = 2;
  bool last = false;
  while (!last) {
    last = idat[p] & 1;
    EXPECT_EQ(idat[p] & 6, 0) << "stored blocks only";
    const std::size_t len = static_cast<unsigned char>(idat[p + 1]) | static_cast<unsigned char>(idat[p + 2]) << 8;
    const std::size_t nlen = static_cast<unsigned char>(idat[p + 3]) | static_cast<unsigned char>(idat[p + 4]) << 8;
    EXPECT_EQ(len ^ nlen, 0xffffu);
    raw += idat.substr(p + 5, len);
    p += 5 + len;
  }
  EXPECT_EQ(be32(idat, p), adler32(raw));
  ASSERT_EQ(raw.size(), h * (w + 1));
  for (std::size_t y = 0; y < h; ++y) {
    ASSERT_EQ(raw[y * (w + 1)], '\0');
    ASSERT_EQ(0, std::memcmp(raw.data() + y * (w + 1) + 1, px.data() + y * w, w)) << "row " << y;
  }
}

TEST(Png, RejectsWhatItCannotEncode) {
  const Rgb two[] = {{0, 0, 0}, {9, 9, 9}};
  const std::vector<std::uint8_t> px{0, 1, 2, 0};
  EXPECT_THROW(png_palette_bytes(2, 2, px, two), InvalidArgument);   // index 2 past the palette
  EXPECT_THROW(png_palette_bytes(3, 2, px, two), InvalidArgument);   // wrong pixel count
  EXPECT_THROW(png_palette_bytes(0, 0, {}, two), InvalidArgument);   // empty image
}

}  // namespace
}  // namespace weft::tool
