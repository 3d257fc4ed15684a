// pykernels: issue 28's Python kernels, measured by bench/peers/pykernels_bench.py: the seed's
// insidePolygon (body unchanged) for every pixel of an N-pixel square image with 24 vertices,
// as a weft Python kernel (@weft.jit with two prange loops), the same with boundscheck=True, the
// same rule hand-written in OpenCL C, and weft.polygon_mask, on each device asked for; the time
// a new process needs until the cached kernel is ready; with --compare, Numba's
// @njit(parallel=True) prange version on the host's cores and Numba CUDA where a GPU is found.
// Every mask is checked against weft.polygon_mask's. Skips when weft's Python package is missing.
#include "bench/harness.hpp"

#include <cmath>

namespace weft::bench {
namespace {

void run_pykernels(Context& ctx) {
  std::string devices;
  for (const Device& dev : ctx.devices()) devices += (devices.empty() ? "" : ",") + dev.selector();
  const auto side = static_cast<std::size_t>(std::sqrt(static_cast<double>(ctx.n_or(std::size_t{1} << 20))));
  ctx.progress("pykernels: the seed's insidePolygon over " + std::to_string(side) + "x" + std::to_string(side) +
               " pixels" + (ctx.options().compare ? ", with Numba's CPU and CUDA versions" : ""));
  std::string why;
  const std::vector<std::string> args{std::to_string(side), std::to_string(ctx.options().repeat), "24", devices,
                                      ctx.options().compare ? "1" : "0"};
  if (!run_peer(ctx, "pykernels", "pykernels_bench.py", args, &why)) ctx.progress("pykernels did not run: " + why);
}

const SuiteRegistration pykernels_registration{
    {"pykernels", "Python kernels (@weft.jit) vs OpenCL C, polygon_mask and (--compare) Numba CPU/CUDA",
     run_pykernels}};

}  // namespace
}  // namespace weft::bench
