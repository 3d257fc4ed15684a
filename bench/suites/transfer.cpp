// transfer: host -> device and device -> host bandwidth for pageable memory (a std::vector)
// and pinned memory (weft::PinnedMemory), 256 MiB by default, on every device. Each copy
// blocks and is timed by the wall clock, what the caller waits for: a staged pageable copy's
// host memcpy of its first (upload) or last (download) chunk lies outside its device events.
#include <cstring>

#include "bench/harness.hpp"

namespace weft::bench {
namespace {

void run_transfer(Context& ctx) {
  const std::size_t bytes = ctx.n_or(std::size_t{256} << 20);
  for (const Device& dev : ctx.devices()) {
    ctx.progress("transfer on " + dev.selector() + ", " + std::to_string(bytes >> 20) + " MiB");
    Queue q(dev);
    Buffer buf(dev, bytes);
    std::vector<unsigned char> pageable(bytes, 1);
    PinnedMemory pinned(dev, bytes);
    std::memset(pinned.data(), 1, bytes);
    const int w = ctx.options().warmup, r = ctx.options().repeat;
    const auto b = static_cast<double>(bytes);
    auto add = [&](const char* method, const Stats& s) {
      ctx.add({"transfer", method, dev.selector(), bytes, "uint8", s.median, s.min, b, ""});
    };
    add("host -> device, pageable", time_wall(w, r, [&] { (void)q.write(buf, pageable.data(), bytes, 0, Blocking::yes); }));
    add("host -> device, pinned", time_wall(w, r, [&] { (void)q.write(buf, pinned.data(), bytes, 0, Blocking::yes); }));
    add("device -> host, pageable", time_wall(w, r, [&] { (void)q.read(buf, pageable.data(), bytes, 0, Blocking::yes); }));
    add("device -> host, pinned", time_wall(w, r, [&] { (void)q.read(buf, pinned.data(), bytes, 0, Blocking::yes); }));
  }
}

const SuiteRegistration transfer_registration{{"transfer", "host <-> device copies, pageable and pinned", run_transfer}};

}  // namespace
}  // namespace weft::bench
