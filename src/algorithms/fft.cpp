// weft::fft on raw buffers: the checks, then the device's library (runtime/fft_engine.hpp),
// or the host's pocketfft through a copy for devices without one (OpenCL). Libraries that do
// not scale or conjugate (cuFFT) get one small kernel after them (kernels/cl/fft_scale.cl).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/fft_checks.hpp"
#include "core/lifetime.hpp"
#include "embedded/weft_embedded.hpp"
#include "runtime/device_local.hpp"
#include "runtime/fft_engine.hpp"
#include "runtime/ordered_command.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"
#include "weft/fft.hpp"
#include "weft/kernel_args.hpp"
#include "weft/program.hpp"

namespace weft::fft {

Norm parse_norm(std::string_view text) {
  if (text == "backward") return Norm::backward;
  if (text == "ortho") return Norm::ortho;
  if (text == "forward") return Norm::forward;
  throw InvalidArgument("fft: norm must be 'backward', 'ortho' or 'forward', not '" + std::string(text) + "'");
}

double norm_scale(Norm norm, bool forward_transform, std::int64_t n) {
  if (n <= 0) return 1.0;
  const double nn = static_cast<double>(n);
  switch (norm) {
    case Norm::backward: return forward_transform ? 1.0 : 1.0 / nn;
    case Norm::forward: return forward_transform ? 1.0 / nn : 1.0;
    case Norm::ortho: return 1.0 / std::sqrt(nn);
  }
  return 1.0;
}

namespace {

// The scaling kernels, built once per device.
struct ScaleKernels {
  explicit ScaleKernels(const Device& d)
      : program(Program::build(d, d.info().fp64 ? std::string(embedded::fft_scale_cl) + "\n" +
                                                      std::string(embedded::fft_scale_f64_cl)
                                                : std::string(embedded::fft_scale_cl))),
        f32(program.kernel("weft_fft_scale_f32")),
        f64(d.info().fp64 ? program.kernel("weft_fft_scale_f64") : Kernel()) {}
  Program program;
  Kernel f32, f64;
};

const ScaleKernels& scale_kernels(const Device& d) {
  static detail::Immortal<detail::DeviceLocal<const ScaleKernels>> kernels(
      [](const Device& dev) { return std::make_shared<const ScaleKernels>(dev); });
  return kernels->get(d);
}

// x[offset + i] *= (i odd ? im : re) for n reals of buffer x.
Event launch_scale(Queue& queue, const Buffer& x, bool dbl, std::size_t offset, std::size_t n, double re, double im,
                   std::span<const Event> wait) {
  const ScaleKernels& k = scale_kernels(queue.device());
  KernelArgs args(dbl ? k.f64 : k.f32);
  const auto off = static_cast<std::uint64_t>(offset);
  const auto count = static_cast<std::uint64_t>(n);
  if (dbl) {
    args.set_all(x, off, count, re, im);
  } else {
    args.set_all(x, off, count, static_cast<float>(re), static_cast<float>(im));
  }
  const std::size_t group = 256;
  return queue.launch(args, NDRange((n + group - 1) / group * group), NDRange(group), {}, wait);
}


// The byte range [first, last) a strided layout reaches (the desc's strides and offset).
struct Span {
  std::size_t first = 0, last = 0;
};
Span reach(const std::vector<std::size_t>& shape, const std::vector<std::ptrdiff_t>& strides, std::size_t offset,
           std::size_t elem) {
  std::ptrdiff_t lo = 0, hi = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const auto ext = static_cast<std::ptrdiff_t>(shape[d]) - 1;
    if (strides[d] < 0) lo += ext * strides[d];
    else hi += ext * strides[d];
  }
  return {static_cast<std::size_t>(static_cast<std::ptrdiff_t>(offset) + lo),
          static_cast<std::size_t>(static_cast<std::ptrdiff_t>(offset) + hi) + elem};
}

// The host copy for devices without a library: the reached bytes of in and out come to the
// host, pocketfft runs there, out's bytes go back (gaps in out's layout keep their values).
Event through_host(Queue& queue, const detail::FftDesc& desc, const Buffer& in, const Buffer& out,
                   std::span<const Event> wait) {
  const std::size_t rs = desc.real_size();
  const bool real_in = desc.kind == Kind::r2c, real_out = desc.kind == Kind::c2r;
  const std::vector<std::size_t> cshape = desc.complex_shape();
  const Span si = reach(real_in ? desc.shape : cshape, desc.in_strides, desc.in_offset, real_in ? rs : 2 * rs);
  const Span so = reach(real_out ? desc.shape : cshape, desc.out_strides, desc.out_offset, real_out ? rs : 2 * rs);
  std::vector<unsigned char> hin(si.last - si.first), hout(so.last - so.first);
  queue.read(in, hin.data(), hin.size(), si.first, Blocking::yes, wait);
  queue.read(out, hout.data(), hout.size(), so.first, Blocking::yes);
  detail::FftDesc local = desc;
  local.in_offset -= si.first;
  local.out_offset -= so.first;
  if (in.impl() == out.impl() && si.first == so.first && hin.size() == hout.size()) {
    detail::run_pocketfft(local, hin.data(), hin.data(), config().num_threads);
    return queue.write(out, hin.data(), hin.size(), so.first, Blocking::yes);
  }
  detail::run_pocketfft(local, hin.data(), hout.data(), config().num_threads);
  return queue.write(out, hout.data(), hout.size(), so.first, Blocking::yes);
}

}  // namespace

std::string library(const Device& device) {
  detail::FftEngine* engine = detail::fft_engine(*device.impl());
  return engine ? engine->library() : std::string("pocketfft (through a host copy)");
}

Event execute(Queue& queue, const Transform& t, const Buffer& in, const Buffer& out, std::span<const Event> wait) {
  const detail::FftDesc desc = detail::checked_desc(t, in, out);
  const Device dev = queue.device();
  if (in.device().impl() != dev.impl() || out.device().impl() != dev.impl()) {
    throw InvalidArgument("fft::execute: in and out must be buffers of the queue's device " + dev.name());
  }
  std::size_t count = 1;
  for (std::size_t e : desc.shape) count *= e;
  if (count == 0) return queue.marker(wait);
  detail::FftEngine* engine = detail::fft_engine(*dev.impl());
  if (!engine) return through_host(queue, desc, in, out, wait);
  // (The tests' switch makes any library look like cuFFT: fft_checks.hpp.)
  const bool as_batched = detail::fft_batched_layout_for_tests();
  const bool general = engine->general_layout() && !as_batched;
  const bool scales = engine->scales() && !as_batched;
  const bool conjugates = engine->conjugated_real() && !as_batched;
  if (!general) detail::check_library_layout(desc, engine->library());

  const bool conj_in = !conjugates && desc.kind == Kind::c2r && desc.forward;
  const bool conj_out = !conjugates && desc.kind == Kind::r2c && !desc.forward;
  const bool dbl = desc.double_precision;
  const std::size_t rs = desc.real_size();
  std::vector<Event> before(wait.begin(), wait.end());
  detail::FftDesc run = desc;
  if (conj_in) {
    // hfft through a library whose c2r has one sign: c2r(conj(x)) is the conjugated
    // transform. The input is conjugated in place (cuFFT's c2r overwrites it anyway).
    std::size_t nin = 1;
    for (std::size_t e : desc.complex_shape()) nin *= e;
    before = {launch_scale(queue, in, dbl, desc.in_offset / rs, 2 * nin, 1.0, -1.0, wait)};
    run.forward = false;
  }
  if (conj_out) run.forward = true;
  if (!scales) run.scale = 1.0;
  Event done = detail::ordered(queue.impl(), before, [&](std::span<const detail::EventPtr> w) {
    return engine->execute(*queue.impl(), run, in.impl(), out.impl(), w);
  });
  if (!scales && (desc.scale != 1.0 || conj_out)) {
    std::size_t nout = 1;
    for (std::size_t e : desc.kind == Kind::c2r ? desc.shape : desc.complex_shape()) nout *= e;
    if (desc.kind != Kind::c2r) nout *= 2;
    const Event after[] = {done};
    done = launch_scale(queue, out, dbl, desc.out_offset / rs, nout, desc.scale, conj_out ? -desc.scale : desc.scale,
                        after);
  }
  return done;
}

}  // namespace weft::fft
