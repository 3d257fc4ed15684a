#include "runtime/bounds_check.hpp"

#include <array>
#include <cstring>

#include "runtime/backend.hpp"
#include "runtime/completion_event.hpp"
#include "weft/error.hpp"

namespace weft::detail {

ArgList bounds_args(KernelImpl& kernel, const ArgList& args, QueueImpl& queue) {
  const BoundsPlan& plan = *kernel.bounds();
  BoundsState& state = kernel.bounds_state();
  if (!state.record) {
    BufferPtr record = queue.device()->allocate(bounds_record_bytes);
    const std::array<std::uint32_t, bounds_record_bytes / 4> zeros{};
    queue.write(record, 0, bounds_record_bytes, zeros.data(), true, {})->wait();
    state.record = std::move(record);
  }
  const std::size_t n = args.size();
  ArgList full(n + plan.hidden());
  for (std::size_t i = 0; i < n; ++i) full[i] = args[i];
  full[n].kind = ArgValue::Kind::buffer;
  full[n].buffer = state.record;
  for (std::size_t j = 0; j < plan.sized.size(); ++j) {
    ArgValue& a = full[n + 1 + j];
    const ArgValue& b = args[plan.sized[j]];
    const std::uint64_t bytes = b.size ? b.size : b.buffer->size();  // an array's elements, or the whole Buffer
    a.kind = ArgValue::Kind::value;
    a.size = sizeof bytes;
    std::memcpy(a.bytes.data(), &bytes, sizeof bytes);
  }
  return full;
}

void check_bounds(KernelImpl& kernel, QueueImpl& queue, const std::shared_ptr<EventImpl>& done) {
  BoundsState& state = kernel.bounds_state();
  std::array<std::uint32_t, 10> r{};
  const EventPtr wait[] = {done};
  queue.read(state.record, 0, sizeof r, r.data(), true, wait)->wait();
  if (r[0] == 0) return;
  const std::array<std::uint32_t, 32> zeros{};
  queue.write(state.record, 0, sizeof zeros, zeros.data(), true, {})->wait();
  const BoundsPlan& plan = *kernel.bounds();
  const auto& params = kernel.params();
  const std::size_t p = r[1];
  const std::string param = p < params.size() ? "'" + params[p].name + "' ('" + params[p].type_name + "')" : "?";
  const auto index = static_cast<std::int64_t>(std::uint64_t{r[3]} | (std::uint64_t{r[4]} << 32));
  const std::uint64_t count = std::uint64_t{r[5]} | (std::uint64_t{r[6]} << 32);
  const std::size_t file = r[2] >> 24;
  const std::string where = (file < plan.files.size() ? plan.files[file] : "<source>") + ":" +
                            std::to_string(r[2] & 0xffffffu);
  throw IndexOutOfRange(where + ": in kernel '" + kernel.name() + "': index " +
                        std::to_string(index) + " is out of bounds for parameter " + param + " of " +
                        std::to_string(count) + " element(s), in work-item (" + std::to_string(r[7]) + ", " +
                        std::to_string(r[8]) + ", " + std::to_string(r[9]) +
                        "); the access was not performed (WEFT_BOUNDS_CHECK=1)");
}

bool waits_on_open_user_event(std::span<const Event> wait) {
  for (const Event& w : wait) {
    const auto& e = w.impl();
    if (e && dynamic_cast<const CompletionEvent*>(e.get()) != nullptr && !e->finished()) return true;
  }
  return false;
}

void check_deferred_bounds(KernelImpl& kernel, QueueImpl& queue) {
  BoundsState& state = kernel.bounds_state();
  if (!state.deferred || !state.deferred->finished()) return;
  const std::shared_ptr<EventImpl> done = std::move(state.deferred);
  state.deferred.reset();
  check_bounds(kernel, queue, done);
}

}  // namespace weft::detail
