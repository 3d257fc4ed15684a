// weft::fft::Transform checked and converted to the engines' terms (bytes), with errors that
// name the field and what it accepts.
#pragma once

#include <string>

#include "runtime/fft_engine.hpp"
#include "weft/buffer.hpp"
#include "weft/fft.hpp"

namespace weft::detail {

/// t checked against in and out (dtype, axes, strides, the bytes each layout reaches).
FftDesc checked_desc(const fft::Transform& t, const Buffer& in, const Buffer& out);
/// InvalidArgument unless desc is what a batched library takes: contiguous, the transformed
/// axes the last ones, in order, at most three.
void check_library_layout(const FftDesc& desc, const std::string& library);

/// The tests' switch: every library is treated as cuFFT is (contiguous batches only, no
/// scaling, one sign for c2r and r2c), so the Array functions take the batched path (a
/// contiguous copy, transformed axes last, at most three at once) and execute scales and
/// conjugates with its own kernel; the paths cuFFT takes are checked where no GPU is.
void fft_batched_layout_for_tests(bool on);
bool fft_batched_layout_for_tests();

}  // namespace weft::detail
