// The slides' vector addition (shared/seeds/001), with weft: the same kernel source on
// whatever device WEFT_DEVICE names (the host CPU by default when there is no GPU).
//
//   WEFT_DEVICE=host ./vadd_example
#include <cstdio>
#include <vector>

#include <weft/weft.hpp>

static const char* source = R"CL(
__kernel void vadd(__global const float *a,
                   __global const float *b,
                   __global float *c)
{
    int gid = get_global_id(0);
    c[gid] = a[gid] + b[gid];
}
)CL";

int main() {
  try {
    const std::size_t n = 1 << 20;
    std::vector<float> a(n), b(n), c(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i);
      b[i] = 2.0f * static_cast<float>(i);
    }
    weft::Device dev = weft::default_device();
    weft::Queue queue(dev, weft::QueueOptions{.profiling = true});  // the time printed below
    weft::Buffer da(dev, n * sizeof(float)), db(dev, n * sizeof(float)), dc(dev, n * sizeof(float));
    queue.write(da, a.data(), da.size());
    queue.write(db, b.data(), db.size());

    weft::Kernel vadd = weft::Program::build(dev, source).kernel("vadd");
    vadd.set_args(da, db, dc);
    weft::Event done = queue.launch(vadd, n);
    queue.read(dc, c.data(), dc.size(), 0, weft::Blocking::yes, {&done, 1});

    for (std::size_t i = 0; i < n; ++i) {
      if (c[i] != a[i] + b[i]) {
        std::printf("wrong result at %zu: %f\n", i, static_cast<double>(c[i]));
        return 1;
      }
    }
    std::printf("vadd on %s (%s): %zu elements correct, kernel %.3f ms\n", dev.selector().c_str(),
                dev.name().c_str(), n, done.profile().seconds() * 1e3);
    return 0;
  } catch (const weft::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
