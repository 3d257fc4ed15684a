// The drivers' own launch floor, measured without weft: the launch suite times a loop of
// bare clEnqueueNDRangeKernel or cuLaunchKernel calls on the device a weft selector names,
// so a run shows what is weft's and what is the driver's. The drivers are loaded here with
// dlopen and driven directly; nothing of weft's backends is used.
//
//   auto floor = weft::bench::driver_launch_floor("cuda:0", 20000, 2, 10, tiny_cl);
//   if (floor) ...  // floor->method, floor->seconds: per launch, one entry per timed round
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace weft::bench {

struct DriverFloor {
  std::string method;            // "bare cuLaunchKernel loop", ...
  std::vector<double> seconds;   // per launch, one entry per timed round
};

/// The bare loop on the device `selector` names: "cuda:N" (a one-thread kernel from PTX that
/// adds 1 to a float, as tiny.cl does) or "opencl:P:D" (opencl_source's kernel "tiny" with
/// one buffer argument, a profiling queue, an event per launch as weft returns one).
/// Nothing for other devices. Throws weft::Error when the driver fails.
std::optional<DriverFloor> driver_launch_floor(const std::string& selector, std::size_t launches, int warmup,
                                               int repeat, std::string_view opencl_source);

}  // namespace weft::bench
