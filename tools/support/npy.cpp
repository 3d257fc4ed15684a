#include "tools/support/npy.hpp"

#include <bit>
#include <cstring>

namespace weft::tool {

static_assert(std::endian::native == std::endian::little,
              "the .npy writer labels multi-byte data little-endian");

std::string npy_descr(DType dtype) {
  const std::size_t size = size_of(dtype);
  const char order = size == 1 ? '|' : '<';
  char kind = 'u';
  if (dtype == DType::bool_) kind = 'b';
  else if (is_floating(dtype)) kind = 'f';
  else if (is_complex(dtype)) kind = 'c';
  else if (is_signed_integer(dtype)) kind = 'i';
  return std::string(1, order) + kind + std::to_string(size);
}

std::string npy_bytes(DType dtype, const Shape& shape, const void* data) {
  // Python's tuple syntax: (), (3,), (3, 4).
  std::string dims;
  for (const auto d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  if (shape.ndim() == 1) dims += ',';
  std::string header = "{'descr': '" + npy_descr(dtype) + "', 'fortran_order': False, 'shape': (" +
                       dims + "), }";
  // Magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple
  // of 64 and ended by a newline, as NumPy writes it.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  const std::size_t bytes = static_cast<std::size_t>(shape.size()) * size_of(dtype);
  std::string out;
  out.reserve(10 + header.size() + bytes);
  out += "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(static_cast<const char*>(data), bytes);
  return out;
}

}  // namespace weft::tool
