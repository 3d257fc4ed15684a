// Builds the program in argv[1] (a file) on the host device, runs its kernel `fill` over
// argv[2] elements, checks x[i] == 3*i + argv[3], and prints "ok" with the build time.
// argv[4], when given, is the build options. The cache tests start several of these at
// once against one WEFT_CACHE_DIR.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "weft/weft.hpp"

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: weft_cache_worker SOURCE N BIAS [OPTIONS]\n");
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    std::stringstream src;
    src << in.rdbuf();
    const int n = std::stoi(argv[2]);
    const int bias = std::stoi(argv[3]);
    weft::Device dev = weft::device("host");
    weft::Queue q(dev);
    const auto t0 = std::chrono::steady_clock::now();
    weft::Kernel k = weft::Program::build(dev, src.str(), argc == 5 ? argv[4] : "").kernel("fill");
    weft::Buffer x(dev, static_cast<std::size_t>(n) * sizeof(int));
    k.set_args(x, bias);
    q.launch(k, static_cast<std::size_t>(n)).wait();
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<int> host(static_cast<std::size_t>(n));
    q.read(x, host.data(), host.size() * sizeof(int));
    for (int i = 0; i < n; ++i) {
      if (host[static_cast<std::size_t>(i)] != 3 * i + bias) {
        std::printf("wrong x[%d] = %d\n", i, host[static_cast<std::size_t>(i)]);
        return 1;
      }
    }
    std::printf("ok %.3f ms\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
    return 0;
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
