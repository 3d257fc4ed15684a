// workgroups: kernels whose work-items meet at barriers and share __local memory
// (bench/kernels/workgroups.cl), on each device. The host backend splits them at their
// barriers into loops over a group's work-items; on a CPU machine PoCL, which does the same in
// LLVM, is the peer, in the same run (issue 29 asks the host for at least 2x PoCL).
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <sstream>

#include "bench/harness.hpp"
#include "embedded/weft_bench_kernels.hpp"

namespace weft::bench {
namespace {

struct Case {
  std::string name;
  NDRange global, local;
  double bytes;
};

void check(bool ok, const std::string& what, const Device& dev) {
  if (!ok) throw Error("workgroups: " + what + " on " + dev.selector() + " gave a wrong result");
}

void run_workgroups(Context& ctx) {
  const std::size_t n = ctx.n_or(std::size_t{1} << 22);
  const std::size_t side = 2048;  // the stencil's image: side x side
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> a(n), img(side * side);
  for (auto& v : a) v = dist(rng);
  for (auto& v : img) v = dist(rng);
  std::vector<unsigned char> bytes(n);
  for (auto& v : bytes) v = static_cast<unsigned char>(rng() & 0xff);
  const std::size_t groups = n / 256;
  for (const Device& dev : ctx.devices()) {
    ctx.progress("workgroups on " + dev.selector() + " (" + dev.name() + ")");
    Queue q(dev, QueueOptions{.profiling = true});  // timed by its events
    Program p = Program::build(dev, weft::embedded::workgroups_cl);
    Buffer da(dev, n * 4), db(dev, n * 4), di(dev, img.size() * 4), dout(dev, img.size() * 4);
    Buffer dbytes(dev, n), dbins(dev, 256 * 4);
    q.write(da, a.data(), n * 4);
    q.write(di, img.data(), img.size() * 4);
    q.write(dbytes, bytes.data(), n);

    Kernel seed_kernel = p.kernel("local_mem_kernel");
    seed_kernel.set_args(da, db);
    Stats s = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return q.launch(seed_kernel, NDRange(n), NDRange(256)); });
    std::vector<float> out(n);
    q.read(db, out.data(), n * 4);
    check(std::abs(out[n / 3] - (a[n / 3] * a[n / 3] + 0.5f)) < 1e-6f, "local_mem_kernel", dev);
    ctx.add({"workgroups", "seed local_mem_kernel", dev.selector(), n, "float32", s.median, s.min, 8.0 * double(n), ""});

    Kernel st = p.kernel("stencil");
    const int w = static_cast<int>(side);
    st.set_args(di, dout, w, w);
    s = time_events(ctx.options().warmup, ctx.options().repeat,
                    [&] { return q.launch(st, NDRange(side, side), NDRange(16, 16)); });
    std::vector<float> o2(img.size());
    q.read(dout, o2.data(), o2.size() * 4);
    float want = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) want += img[(100 + dy) * side + 200 + dx];
    check(std::abs(o2[100 * side + 200] - want / 9.0f) < 1e-4f, "stencil", dev);
    ctx.add({"workgroups", "tiled 3x3 stencil", dev.selector(), img.size(), "float32", s.median, s.min,
             8.0 * double(img.size()), "16x16 tiles"});

    Kernel red = p.kernel("tree_reduce");
    red.set_args(da, db, LocalMemory{256 * 4});
    s = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return q.launch(red, NDRange(n), NDRange(256)); });
    q.read(db, out.data(), groups * 4);
    double part = 0;
    for (std::size_t i = 0; i < 256; ++i) part += a[5 * 256 + i];
    check(std::abs(out[5] - part) < 1e-3, "tree_reduce", dev);
    ctx.add({"workgroups", "tree reduction", dev.selector(), n, "float32", s.median, s.min, 4.0 * double(n),
             "256 per group"});

    Kernel hist = p.kernel("local_histogram");
    const unsigned zero = 0;
    hist.set_args(dbytes, static_cast<unsigned>(n), dbins);
    s = time_events(ctx.options().warmup, ctx.options().repeat, [&] {
      q.fill(dbins, &zero, 4, 0, 256 * 4);
      return q.launch(hist, NDRange(16384), NDRange(64));
    });
    std::vector<unsigned> bins(256);
    q.read(dbins, bins.data(), 256 * 4);
    check(std::count(bytes.begin(), bytes.end(), static_cast<unsigned char>(7)) == static_cast<long>(bins[7]),
          "local_histogram", dev);
    ctx.add({"workgroups", "local-memory histogram", dev.selector(), n, "uint8", s.median, s.min, double(n),
             "256 bins"});
  }
  // The ratio the issue asks for: the host backend against each OpenCL CPU device, per kernel.
  std::map<std::string, double> host;
  for (const Record& r : ctx.records()) {
    if (r.suite == "workgroups" && r.device == "host") host[r.method] = r.seconds_median;
  }
  std::map<std::string, bool> cpu;  // OpenCL CPU devices (PoCL): the peer this suite is for
  for (const Device& d : ctx.devices()) cpu[d.selector()] = d.type() == DeviceType::cpu;
  for (const Record& r : ctx.records()) {
    if (r.suite != "workgroups" || r.device == "host" || !cpu[r.device] || !host.count(r.method) ||
        host[r.method] <= 0) {
      continue;
    }
    std::ostringstream line;
    line.precision(3);
    line << "workgroups: " << r.method << ": host is " << r.seconds_median / host[r.method] << "x as fast as "
         << r.device;
    ctx.progress(line.str());
  }
}

const SuiteRegistration workgroups_registration{
    {"workgroups", "kernels with barriers and __local memory (seed 000, stencil, reduce, histogram)",
     run_workgroups}};

}  // namespace
}  // namespace weft::bench
