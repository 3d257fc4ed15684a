// polygon_mask: checks the request, uploads the vertices and the pixels they sit on, and runs
// one of two kernels (docs/POLYGON.md explains both): on the host backend the
// one-work-item-per-row kernel of src/kernels/cl/polygon.cl, elsewhere (OpenCL devices, CUDA
// GPUs) the work-group kernel of src/kernels/cl/polygon_groups.cl, which gives a row to a
// team of work-items.
#include "core/lifetime.hpp"
#include "weft/polygon.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>

#include "embedded/weft_embedded.hpp"
#include "runtime/device_local.hpp"
#include "runtime/program_waits.hpp"
#include "runtime/result_memory_pinned.hpp"
#include "weft/error.hpp"
#include "weft/pinned_memory.hpp"
#include "weft/program.hpp"
#include "weft/result_memory.hpp"

namespace weft {

namespace {

// Pixel indices and counts are ints in the kernel.
constexpr std::size_t max_extent = std::size_t{1} << 30;
constexpr std::size_t max_vertices = std::size_t{1} << 28;
// The largest work-group polygon_mask_groups takes (POLYGON_GROUP_MAX, its __local arrays).
constexpr std::size_t groups_kernel_max_group = 256;
// A CPU mask of at most this much work (rows x (width + 8 x vertices)) is one work-group.
constexpr double small_mask_work = 65536;

// The work-group kernel needs barriers and __local memory; a device that prefers rows (the
// host backend's threads, each on contiguous rows of the mask) gets the row kernel anyway.
bool uses_row_kernel(const Device& device) {
  const DeviceCapabilities& caps = device.capabilities();
  return caps.prefers_row_kernels || !caps.has_barriers;
}

// The program is built once per device and kept: Program::build would hash the source on
// every call, which a mask of a few microseconds should not pay. Devices with work-groups
// get polygon_groups.cl after polygon.cl, whose edge test it shares.
Program polygon_program(const Device& device) {
  static detail::Immortal<detail::DeviceLocal<const Program>> built([](const Device& d) {
    static const std::string groups_source =
        std::string(embedded::polygon_cl) + "\n" + std::string(embedded::polygon_groups_cl);
    return std::make_shared<const Program>(uses_row_kernel(d) ? Program::build(d, embedded::polygon_cl)
                                                              : Program::build(d, groups_source));
  });
  return built->get(device);
}

// Rows per work-group for the row kernel. The host backend and OpenCL CPU runtimes hand whole
// work-groups to their threads, and one row (every edge, then a row of the mask) is far more
// work than a typical work-item, so a CPU gets a few groups per thread however few rows there
// are; a GPU gets groups of a common size. A small mask on a CPU is one group (up to the
// device's largest work-group), one thread's work: the host backend runs it on the caller's
// thread when its last run took at most 20 us, where waking the threads cost more than the
// work (a 100 x 100 mask took 80 us on the H200 machine's 16 threads from an idle pool; 5 us
// on the VM's caller's thread). Near the bound a mask takes a few tens of microseconds on one
// thread of the queue's worker.
std::size_t rows_per_group(const DeviceInfo& info, std::size_t height, std::size_t width, std::size_t vertices) {
  std::size_t rows = 64;
  if (info.type == DeviceType::cpu) {
    const std::size_t groups = 4 * std::max(1u, info.compute_units);
    // (A row's work: its pixels written, and its crossings with every edge, a few times a pixel's.)
    const double work = static_cast<double>(height) * (static_cast<double>(width) + 8.0 * static_cast<double>(vertices));
    rows = work <= small_mask_work ? height : (height + groups - 1) / groups;
  }
  const std::size_t cap = info.max_work_group_size ? info.max_work_group_size : 1;
  return std::clamp<std::size_t>(rows, 1, cap);
}

// The work-group kernel's launch: a team of 2^team_log2 items per row, each item owning 32
// pixels of the row's segment, and as many rows per work-group as make it 64 items (two
// warps) where rows are narrow, so small teams do not leave the device's groups nearly empty.
struct GroupShape {
  int team_log2 = 0;
  std::size_t group = 1;   // work-items per work-group
  std::size_t groups = 1;  // work-groups
};

GroupShape group_shape(const DeviceInfo& info, std::size_t height, std::size_t width) {
  const std::size_t cap =
      std::min(groups_kernel_max_group, info.max_work_group_size ? info.max_work_group_size : 1);
  int cap_log2 = 0;
  while ((std::size_t{2} << cap_log2) <= cap) ++cap_log2;
  // The smallest team whose words (32 pixels each) cover the row; wider rows run in segments.
  const std::size_t words = (width + 31) / 32;
  GroupShape s;
  while (s.team_log2 < cap_log2 && (std::size_t{1} << s.team_log2) < words) ++s.team_log2;
  const std::size_t team = std::size_t{1} << s.team_log2;
  std::size_t rows = std::max<std::size_t>(1, std::min<std::size_t>(64, std::size_t{1} << cap_log2) / team);
  while (rows > 1 && rows / 2 >= height) rows /= 2;  // no more teams than the image has rows
  s.group = team * rows;
  s.groups = (height + rows - 1) / rows;
  return s;
}

void check_request(std::span<const Point> vertices, std::size_t height, std::size_t width) {
  if (height > max_extent || width > max_extent) {
    throw InvalidArgument("polygon_mask: an image of " + std::to_string(width) + "x" +
                          std::to_string(height) + " pixels is too large; each side may be at most " +
                          std::to_string(max_extent));
  }
  if (vertices.size() > max_vertices) {
    throw InvalidArgument("polygon_mask: " + std::to_string(vertices.size()) +
                          " vertices are too many; at most " + std::to_string(max_vertices));
  }
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    if (!std::isfinite(vertices[i].x) || !std::isfinite(vertices[i].y)) {
      throw InvalidArgument("polygon_mask: vertex " + std::to_string(i) + " is (" +
                            std::to_string(vertices[i].x) + ", " + std::to_string(vertices[i].y) +
                            "); vertices must be finite");
    }
  }
}

void check_device(const Device& dev) {
  if (!dev.info().fp64) {
    throw Unsupported("polygon_mask needs double precision (the rule's crossing points are "
                      "computed in double, as the reference does) and " + dev.selector() + " (" +
                      dev.name() + ") has none; use the host device or another with fp64");
  }
}

// The vertices that are pixels of the image, as sorted, deduplicated (y, x) pairs: each row
// finds its own by binary search. Only these can equal a pixel, which the rule tests exactly.
std::vector<std::pair<int, int>> vertex_pixels(std::span<const Point> vertices, std::size_t height,
                                               std::size_t width) {
  std::vector<std::pair<int, int>> hits;
  for (const Point& v : vertices) {
    if (v.x >= 0 && v.y >= 0 && v.x < static_cast<double>(width) &&
        v.y < static_cast<double>(height) && v.x == std::floor(v.x) && v.y == std::floor(v.y)) {
      hits.emplace_back(static_cast<int>(v.y), static_cast<int>(v.x));
    }
  }
  std::sort(hits.begin(), hits.end());
  hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
  return hits;
}

// polygon_mask_groups' params: the vertices as 2n doubles, then the hits as (y, x) int pairs,
// one double's worth each (at least one, as a buffer needs a byte; nhits says how many).
static_assert(sizeof(std::pair<int, int>) == sizeof(double));
std::size_t params_bytes(std::size_t n, std::size_t nhits) {
  return (2 * n + std::max<std::size_t>(nhits, 1)) * sizeof(double);
}

void pack_params(std::span<const Point> vertices, const std::vector<std::pair<int, int>>& hits,
                 std::byte* dst) {
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const double xy[2] = {vertices[i].x, vertices[i].y};
    std::memcpy(dst + 2 * i * sizeof(double), xy, sizeof xy);
  }
  if (!hits.empty()) {
    std::memcpy(dst + 2 * vertices.size() * sizeof(double), hits.data(), hits.size() * sizeof hits[0]);
  }
}

// Binds polygon_mask_groups' arguments and launches it after wait.
Event launch_groups(Queue& queue, const Kernel& kernel, const Buffer& params, std::size_t n, std::size_t nhits,
                    std::size_t height, std::size_t width, std::uint8_t border_value, const Buffer& out,
                    std::span<const Event> wait) {
  const GroupShape s = group_shape(queue.device().info(), height, width);
  KernelArgs args(kernel);
  args.set_all(params, static_cast<int>(n), static_cast<int>(nhits), static_cast<int>(height),
               static_cast<int>(width), border_value, s.team_log2, out);
  return queue.launch(args, NDRange(s.groups * s.group), NDRange(s.group), {}, wait);
}

// The row kernel, as the host backend runs it.
Event enqueue_rows(Queue& queue, std::span<const Point> vertices, std::size_t height, std::size_t width,
                   const Buffer& out, std::uint8_t border_value, std::span<const Event> wait) {
  const Device dev = queue.device();
  auto staging = std::make_shared<std::vector<double>>(2 * vertices.size());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    (*staging)[2 * i] = vertices[i].x;
    (*staging)[2 * i + 1] = vertices[i].y;
  }
  auto hits = std::make_shared<std::vector<std::pair<int, int>>>(vertex_pixels(vertices, height, width));
  const int nhits = static_cast<int>(hits->size());
  if (hits->empty()) hits->emplace_back(0, 0);  // a buffer needs a byte; nhits says none

  Buffer dvertices(dev, staging->size() * sizeof(double));
  Buffer dhits(dev, hits->size() * sizeof(std::pair<int, int>));
  static_assert(sizeof(std::pair<int, int>) == 2 * sizeof(int));
  const Event uploads[] = {
      queue.write(dvertices, staging->data(), staging->size() * sizeof(double), 0, Blocking::no, wait),
      queue.write(dhits, hits->data(), hits->size() * sizeof(std::pair<int, int>), 0, Blocking::no, wait)};

  // Scratch for the kernel: a bit per pixel, a word-aligned row of them per image row.
  const std::size_t words = (width + 63) / 64;
  Buffer toggles(dev, height * words * sizeof(std::uint64_t));

  KernelArgs k(polygon_program(dev).kernel("polygon_mask"));
  k.set_all(dvertices, static_cast<int>(vertices.size()), dhits, nhits, static_cast<int>(height),
            static_cast<int>(width), border_value, toggles, out);
  const std::size_t group = rows_per_group(dev.info(), height, width, vertices.size());
  const std::size_t global = (height + group - 1) / group * group;
  const Event done = queue.launch(k, NDRange(global), NDRange(group), {}, uploads);
  // The staging copies live until the kernel (hence both uploads, in any queue order) has
  // run, so the call returns at once.
  if (!detail::done_within(done)) detail::then_within(done, [staging, hits](const Event&) {});  // (run already where the host ran it inline)
  return done;
}

// What polygon_mask needs on a device with work-groups besides the caller's vectors, kept
// between calls: device memory for the parameters and the mask, pinned staging for both
// transfers, and the kernel (its arguments are these buffers). Allocating these per call
// would cost more than a small mask's kernel, and on CUDA freeing device memory waits for
// the device.
struct Workspace {
  Device device;
  Kernel kernel;
  Buffer params;
  Buffer out;
  PinnedMemory upload;
  PinnedMemory download;
};

// A device's idle workspaces. A call takes one for itself (or makes one), so concurrent
// calls never share one, and hands it back when every command using it has finished.
class WorkspacePool {
 public:
  explicit WorkspacePool(const Device& device) : device_(device) {}

  std::unique_ptr<Workspace> take() {
    {
      std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        auto ws = std::move(idle_.back());
        idle_.pop_back();
        return ws;
      }
    }
    auto ws = std::make_unique<Workspace>();
    ws->device = device_;
    ws->kernel = polygon_program(device_).kernel("polygon_mask_groups");
    return ws;
  }

  // Keeps a few (as many as calls ran at once, up to a bound), and none holding more than
  // max_kept_bytes, so a one-off huge mask does not stay pinned.
  void give(std::unique_ptr<Workspace> ws) {
    const std::size_t held = ws->out.size() + ws->params.size() + ws->upload.size() + ws->download.size();
    if (held > max_kept_bytes) return;
    std::lock_guard lock(mutex_);
    if (idle_.size() < max_kept) idle_.push_back(std::move(ws));
  }

 private:
  static constexpr std::size_t max_kept = 4;
  // The 8192x8192 mask takes 128 MiB (on the device and pinned).
  static constexpr std::size_t max_kept_bytes = std::size_t{256} << 20;
  Device device_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Workspace>> idle_;
};

WorkspacePool& workspace_pool(const Device& device) {
  static detail::Immortal<detail::DeviceLocal<WorkspacePool>> pools;  // core/lifetime.hpp
  return pools->get(device);
}

// A workspace for the length of one call. It goes back to the pool only after the commands
// that use its memory have finished, also when the call throws half-way, so the next call
// never overwrites memory a transfer or the kernel still uses.
class Lease {
 public:
  explicit Lease(const Device& device) : ws_(workspace_pool(device).take()) {}
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  ~Lease() {
    for (const Event& e : pending_) {
      try {
        e.wait();
      } catch (...) {
        // The call reports the failure; here only completion matters.
      }
    }
    try {
      workspace_pool(ws_->device).give(std::move(ws_));
    } catch (...) {
      // Not kept: the next call makes another.
    }
  }
  Workspace* operator->() const { return ws_.get(); }
  const Event& track(Event e) { return pending_.emplace_back(std::move(e)); }

 private:
  std::unique_ptr<Workspace> ws_;
  std::vector<Event> pending_;
};

void reserve_buffer(Buffer& b, const Device& device, std::size_t bytes) {
  if (!b || b.size() < bytes) b = Buffer(device, bytes);
}

void reserve_pinned(PinnedMemory& p, const Device& device, std::size_t bytes) {
  if (!p || p.size() < bytes) p = PinnedMemory(device, bytes);
}

// polygon_mask to the host on a device with work-groups: one upload of the parameters from
// pinned memory, the kernel, and the mask read back into out. A CPU device's buffers are host
// memory already: there the mask is read straight into out. On a GPU, a large mask (at least
// kResultMemoryMinBytes) is read straight into out too: the backend copies at full speed when
// out is pinned (Python's out comes from weft::result_memory, pinned on CUDA) and through its
// own staging when it is pageable; so is a smaller one into a pinned result_memory block (one
// DMA, no memcpy: Python's polygon_mask asks for one from 64 KiB); any other comes back in
// chunks into pinned memory (DMA at full speed) and each chunk is copied into out while the
// next one is on its way.
void mask_with_groups(Queue& queue, std::span<const Point> vertices, std::size_t height, std::size_t width,
                      std::uint8_t border_value, std::uint8_t* out) {
  const Device dev = queue.device();
  check_device(dev);
  const std::size_t pixels = height * width;
  const std::vector<std::pair<int, int>> hits = vertex_pixels(vertices, height, width);
  const std::size_t pbytes = params_bytes(vertices.size(), hits.size());

  Lease ws(dev);
  reserve_pinned(ws->upload, dev, pbytes);
  reserve_buffer(ws->params, dev, pbytes);
  reserve_buffer(ws->out, dev, pixels);
  pack_params(vertices, hits, ws->upload.as<std::byte>());
  const Event up[] = {ws.track(queue.write(ws->params, ws->upload.data(), pbytes, 0, Blocking::no))};
  const Event kernel[] = {ws.track(launch_groups(queue, ws->kernel, ws->params, vertices.size(), hits.size(),
                                                  height, width, border_value, ws->out, up))};
  if (dev.type() == DeviceType::cpu || pixels >= kResultMemoryMinBytes ||
      detail::is_pinned_result_memory(dev, out, pixels)) {
    ws.track(queue.read(ws->out, out, pixels, 0, Blocking::yes, kernel));
    return;
  }
  reserve_pinned(ws->download, dev, pixels);
  auto* staged = ws->download.as<std::uint8_t>();
  // Up to 8 chunks of at least 256 KiB: enough overlap, few commands.
  const std::size_t chunk = std::max<std::size_t>(std::size_t{256} << 10, (pixels + 7) / 8);
  std::vector<std::pair<std::size_t, Event>> reads;
  for (std::size_t off = 0; off < pixels; off += chunk) {
    const std::size_t len = std::min(chunk, pixels - off);
    reads.emplace_back(off, ws.track(queue.read(ws->out, staged + off, len, off, Blocking::no, kernel)));
  }
  queue.flush();
  for (const auto& [off, e] : reads) {
    e.wait();
    std::memcpy(out + off, staged + off, std::min(chunk, pixels - off));
  }
  kernel[0].wait();  // reports a failed kernel, should its reads not
}

}  // namespace

std::vector<Point> random_polygon(std::size_t n, std::uint64_t seed, std::size_t width,
                                  std::size_t height) {
  // mt19937_64's sequence is fixed by the standard; the bounded draw is ours, because the
  // standard distributions differ between libraries.
  std::mt19937_64 rng(seed);
  const auto draw = [&](std::uint64_t bound) {  // uniform in [0, bound], no modulo bias
    const std::uint64_t range = bound + 1;
    if (range == 0) return static_cast<double>(rng());  // bound is the whole 64-bit range
    const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t limit = top - top % range;
    std::uint64_t r = rng();
    while (r >= limit) r = rng();
    return static_cast<double>(r % range);
  };
  std::vector<Point> v(n);
  for (auto& p : v) {
    p.x = draw(width);
    p.y = draw(height);
  }
  return v;
}

Event enqueue_polygon_mask(Queue& queue, std::span<const Point> vertices, std::size_t height,
                           std::size_t width, const Buffer& out, std::uint8_t border_value,
                           std::span<const Event> wait) {
  check_request(vertices, height, width);
  const Device dev = queue.device();
  const std::size_t pixels = height * width;
  if (!out) throw InvalidArgument("polygon_mask: the output buffer is empty");
  if (!(out.device() == dev)) {
    throw InvalidArgument("polygon_mask: the output buffer lives on " + out.device().selector() +
                          ", the queue on " + dev.selector());
  }
  if (out.size() < pixels) {
    throw InvalidArgument("polygon_mask: the output buffer holds " + std::to_string(out.size()) +
                          " bytes; a " + std::to_string(width) + "x" + std::to_string(height) +
                          " mask needs " + std::to_string(pixels));
  }
  check_device(dev);
  if (pixels == 0) return queue.marker(wait);
  if (vertices.empty()) {
    // No edge and no vertex: the rule answers "outside" everywhere.
    const std::uint8_t zero = 0;
    return queue.fill(out, &zero, 1, 0, pixels, wait);
  }
  if (uses_row_kernel(dev)) return enqueue_rows(queue, vertices, height, width, out, border_value, wait);

  const std::vector<std::pair<int, int>> hits = vertex_pixels(vertices, height, width);
  const std::size_t pbytes = params_bytes(vertices.size(), hits.size());
  auto staging = std::make_shared<std::vector<std::byte>>(pbytes);
  pack_params(vertices, hits, staging->data());
  Buffer params(dev, pbytes);
  const Event up[] = {queue.write(params, staging->data(), pbytes, 0, Blocking::no, wait)};
  Kernel k = polygon_program(dev).kernel("polygon_mask_groups");
  const Event done = launch_groups(queue, k, params, vertices.size(), hits.size(), height, width, border_value,
                                   out, up);
  // The staging copy and the parameters' device memory live until the kernel has run (on
  // CUDA, freeing device memory here would wait for it), so the call returns at once.
  if (!detail::done_within(done)) detail::then_within(done, [staging, params](const Event&) {});
  return done;
}

void polygon_mask_into(Queue& queue, std::span<const Point> vertices, std::size_t height, std::size_t width,
                       std::span<std::uint8_t> out, std::uint8_t border_value) {
  check_request(vertices, height, width);
  if (out.size() != height * width) {
    throw InvalidArgument("polygon_mask_into: out holds " + std::to_string(out.size()) + " bytes; the mask needs " +
                          std::to_string(height * width) + " (height * width)");
  }
  if (out.empty()) return;
  if (!vertices.empty() && !uses_row_kernel(queue.device())) {
    mask_with_groups(queue, vertices, height, width, border_value, out.data());
    return;
  }
  Buffer dev_out(queue.device(), out.size());
  const Event done[] = {enqueue_polygon_mask(queue, vertices, height, width, dev_out, border_value)};
  queue.read(dev_out, out.data(), out.size(), 0, Blocking::yes, done);
}

Mask polygon_mask(Queue& queue, std::span<const Point> vertices, std::size_t height,
                  std::size_t width, std::uint8_t border_value) {
  check_request(vertices, height, width);
  Mask m;
  m.height = height;
  m.width = width;
  m.data.resize(height * width);
  polygon_mask_into(queue, vertices, height, width, m.data, border_value);
  return m;
}

Mask polygon_mask(std::span<const Point> vertices, std::size_t height, std::size_t width,
                  const Device& device, std::uint8_t border_value) {
  if (!device) throw InvalidArgument("polygon_mask: no device given");
  Queue queue(device);
  return polygon_mask(queue, vertices, height, width, border_value);
}

}  // namespace weft
