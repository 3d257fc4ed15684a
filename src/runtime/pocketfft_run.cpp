// The host's transforms: pocketfft (third_party/pocketfft, BSD-3-Clause; docs/FFT.md says why
// pocketfft rather than FFTW). Header-only, so always present; it keeps the twiddle factors
// of the last POCKETFFT_CACHE_SIZE lengths it planned (a plan cache per length and type) and
// takes any strides (in bytes) and axes, batching over the others itself.
#include <complex>
#include <exception>
#include <stdexcept>
#include <string>

#include "runtime/fft_engine.hpp"
#include "weft/error.hpp"

#define POCKETFFT_CACHE_SIZE 16
#include <pocketfft_hdronly.h>

namespace weft::detail {

namespace {

template <class T>
void run_typed(const FftDesc& d, const void* in_base, void* out_base, std::size_t threads) {
  const auto* in = static_cast<const char*>(in_base) + d.in_offset;
  auto* out = static_cast<char*>(out_base) + d.out_offset;
  const T fct = static_cast<T>(d.scale);
  switch (d.kind) {
    case fft::Kind::c2c:
      pocketfft::c2c<T>(d.shape, d.in_strides, d.out_strides, d.axes, d.forward,
                        reinterpret_cast<const std::complex<T>*>(in), reinterpret_cast<std::complex<T>*>(out), fct,
                        threads);
      return;
    case fft::Kind::r2c:
      pocketfft::r2c<T>(d.shape, d.in_strides, d.out_strides, d.axes, d.forward, reinterpret_cast<const T*>(in),
                        reinterpret_cast<std::complex<T>*>(out), fct, threads);
      return;
    case fft::Kind::c2r:
      // pocketfft's c2r is the inverse direction when forward is false (irfft), the
      // conjugated one when true (hfft).
      pocketfft::c2r<T>(d.shape, d.in_strides, d.out_strides, d.axes, d.forward,
                        reinterpret_cast<const std::complex<T>*>(in), reinterpret_cast<T*>(out), fct, threads);
      return;
  }
}

}  // namespace

void run_pocketfft(const FftDesc& desc, const void* in, void* out, std::size_t threads) {
  try {
    if (desc.double_precision) {
      run_typed<double>(desc, in, out, threads);
    } else {
      run_typed<float>(desc, in, out, threads);
    }
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("fft: pocketfft could not allocate its work memory", 0, "std::bad_alloc", "pocketfft");
  } catch (const std::invalid_argument& e) {
    // The checks in weft::fft::execute come first; what pocketfft still refuses is a bug.
    throw InvalidArgument(std::string("fft: pocketfft refused the transform: ") + e.what());
  }
}

}  // namespace weft::detail
