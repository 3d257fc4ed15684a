// Discrete Fourier transforms: the Array API's fft extension, computed by the libraries made
// for the job: pocketfft on the host (vendored, header-only, the one NumPy and SciPy use),
// cuFFT on CUDA devices (opened with dlopen, like the driver API), and on OpenCL devices the
// host's pocketfft through an explicit copy to the host and back (docs/FFT.md says why).
//
// Raw buffers of interleaved complex numbers (pairs of float or double) and of reals, any
// strides, batched over every axis that is not transformed:
//
//   weft::fft::Transform t;                       // a 1-D complex transform of 8 rows of 64
//   t.kind = weft::fft::Kind::c2c;
//   t.precision = weft::DType::float32;
//   t.shape = weft::Shape{8, 64};
//   t.axes = {1};
//   t.scale = weft::fft::norm_scale(weft::fft::Norm::backward, true, 64);
//   weft::fft::execute(queue, t, in, out);        // in, out: 8 * 64 * 2 floats
//
// Frequencies and shifts need no transform library:
//
//   weft::Array f = weft::fft::fftfreq(8, 0.1, weft::DType::float64, dev);
//   weft::Array s = weft::fft::fftshift(f, {0});
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "weft/array.hpp"
#include "weft/buffer.hpp"
#include "weft/dtype.hpp"
#include "weft/event.hpp"
#include "weft/queue.hpp"
#include "weft/shape.hpp"

namespace weft::fft {

/// The Array API's norm=: which direction divides by n ("backward": the inverse, the default),
/// or both by sqrt(n) ("ortho"), or the forward one ("forward").
enum class Norm : std::uint8_t { backward, ortho, forward };
/// "backward", "ortho" or "forward"; InvalidArgument naming norm otherwise.
WEFT_API Norm parse_norm(std::string_view text);
/// The factor a transform of n points is multiplied by: forward_transform is the direction of
/// the transform (fft, rfft, ihfft: true; ifft, irfft, hfft: false).
WEFT_API double norm_scale(Norm norm, bool forward_transform, std::int64_t n);

/// complex to complex, real to complex (the n/2+1 non-negative frequencies of the last
/// transformed axis), complex (Hermitian) to real.
enum class Kind : std::uint8_t { c2c, r2c, c2r };

/// One transform of raw buffers, batched over the axes not in axes.
struct Transform {
  Kind kind = Kind::c2c;
  /// float32 or float64: the type of the reals, and of each half of a complex number.
  DType precision = DType::float32;
  /// The logical shape: of the complex data (c2c), of the real side (the input of r2c, the
  /// output of c2r); the complex side's last transformed axis has shape[axes.back()] / 2 + 1.
  Shape shape;
  /// The transformed axes (distinct, each in [0, ndim)); r2c and c2r halve the last one.
  std::vector<int> axes;
  /// Strides in elements of the input's and output's own type (a complex number counts one);
  /// empty: contiguous (C order). Offsets are in elements too.
  Strides in_strides;
  Strides out_strides;
  std::int64_t in_offset = 0;
  std::int64_t out_offset = 0;
  /// The sign of the exponent: true is exp(-2 pi i jk/n) (fft, rfft). r2c with false and c2r
  /// with true are the conjugated transforms (ihfft, hfft).
  bool forward = true;
  /// What every output element is multiplied by (norm_scale).
  double scale = 1.0;
};

/// Runs t on queue after wait, reading in and writing out (distinct buffers, or the same
/// buffer with the same layout for an in-place c2c), and returns the event of its last
/// command. cuFFT takes a contiguous layout with the transformed axes last and at most three
/// of them (the Array functions below reorder any other); InvalidArgument names what differs.
/// There a c2r transform may overwrite its input (cuFFT's does), and a conjugated one (c2r
/// with forward = true) conjugates the input in place first; the Array functions pass copies.
WEFT_API Event execute(Queue& queue, const Transform& t, const Buffer& in, const Buffer& out,
                       std::span<const Event> wait = {});

/// The library that computes transforms on device: "pocketfft", "cuFFT 11.x" (the version
/// the library reports), "pocketfft (through a host copy)" for OpenCL devices. Throws
/// Unsupported where the device's library cannot be loaded (the reason in the message).
WEFT_API std::string library(const Device& device);

// ---------------------------------------------------------------------------------------------
// Arrays. A transform of float32/complex64 data gives complex64 (float32 for the real
// results), float64/complex128 gives complex128 (float64); other dtypes are refused, as the
// Array API requires floating-point input. n, where given, crops or zero-pads the transformed
// axis first (for irfft and hfft it is the length of the real output; the default 2*(m-1)).

WEFT_API Array fft(const Array& x, std::optional<std::int64_t> n = {}, int axis = -1, Norm norm = Norm::backward);
WEFT_API Array ifft(const Array& x, std::optional<std::int64_t> n = {}, int axis = -1, Norm norm = Norm::backward);
WEFT_API Array rfft(const Array& x, std::optional<std::int64_t> n = {}, int axis = -1, Norm norm = Norm::backward);
WEFT_API Array irfft(const Array& x, std::optional<std::int64_t> n = {}, int axis = -1, Norm norm = Norm::backward);
WEFT_API Array hfft(const Array& x, std::optional<std::int64_t> n = {}, int axis = -1, Norm norm = Norm::backward);
WEFT_API Array ihfft(const Array& x, std::optional<std::int64_t> n = {}, int axis = -1, Norm norm = Norm::backward);
/// Over several axes (empty s: the axes' own lengths; empty axes: the last s.size() axes, or
/// every axis when s is empty too).
WEFT_API Array fftn(const Array& x, const std::vector<std::int64_t>& s = {}, const std::vector<int>& axes = {},
                    Norm norm = Norm::backward);
WEFT_API Array ifftn(const Array& x, const std::vector<std::int64_t>& s = {}, const std::vector<int>& axes = {},
                     Norm norm = Norm::backward);
WEFT_API Array rfftn(const Array& x, const std::vector<std::int64_t>& s = {}, const std::vector<int>& axes = {},
                     Norm norm = Norm::backward);
WEFT_API Array irfftn(const Array& x, const std::vector<std::int64_t>& s = {}, const std::vector<int>& axes = {},
                      Norm norm = Norm::backward);

/// The sample frequencies of an n-point transform with sample spacing d: [0, 1, ..., n/2-1,
/// -n/2, ..., -1] / (d n) (fftfreq), [0, 1, ..., n/2] / (d n) (rfftfreq), in dtype (float32
/// or float64) on device.
WEFT_API Array fftfreq(std::int64_t n, double d, DType dtype, const Device& device);
WEFT_API Array rfftfreq(std::int64_t n, double d, DType dtype, const Device& device);
/// The zero frequency moved to the middle (fftshift) and back (ifftshift) along axes (empty:
/// every axis); any dtype.
WEFT_API Array fftshift(const Array& x, const std::vector<int>& axes = {});
WEFT_API Array ifftshift(const Array& x, const std::vector<int>& axes = {});

}  // namespace weft::fft
