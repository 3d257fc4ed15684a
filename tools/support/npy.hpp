// NumPy's .npy format (version 1.0), written without NumPy: what `weft polygon --out`
// saves, so `numpy.load` reads a mask back as the array it is.
//
//   std::string bytes = weft::tool::npy_bytes(weft::DType::uint8, weft::Shape{h, w}, data);
#pragma once

#include <string>

#include "weft/dtype.hpp"
#include "weft/shape.hpp"

namespace weft::tool {

/// NumPy's descr for a dtype on this (little-endian) machine: "|u1", "<f4", "|b1", ...
std::string npy_descr(DType dtype);

/// A whole .npy file: the magic, the header dict padded so the data starts on a 64-byte
/// boundary, then shape.size() elements of dtype from data, C order.
std::string npy_bytes(DType dtype, const Shape& shape, const void* data);

}  // namespace weft::tool
