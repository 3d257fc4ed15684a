// Graphs: recorded launches, checked when recorded, replayed by the queue's backend.
#include "weft/graph.hpp"

#include "runtime/backend.hpp"
#include "weft/error.hpp"
#include "weft/launch_log.hpp"
#include "weft/queue.hpp"

namespace weft {

namespace {
detail::GraphImpl& checked(const std::shared_ptr<detail::GraphImpl>& g) {
  if (!g) throw InvalidArgument("an empty Graph handle was used");
  return *g;
}
}  // namespace

Graph::Graph(const Device& device) {
  if (!device) throw InvalidArgument("Graph: no device given");
  impl_ = std::make_shared<detail::GraphImpl>(device.impl());
}

Device Graph::device() const { return Device(checked(impl_).device); }

std::size_t Graph::size() const {
  auto& g = checked(impl_);
  std::lock_guard lock(g.mutex);
  return g.launches.size();
}

void Graph::add(const Kernel& kernel, const NDRange& global, const NDRange& local, const NDRange& offset) {
  auto& g = checked(impl_);
  if (!kernel) throw InvalidArgument("Graph::add: an empty Kernel handle was given");
  const detail::LaunchConfig config{global, local, offset};
  detail::check_launch(*kernel.impl(), kernel.impl()->args(), *g.device, config);
  if (kernel.impl()->bounds()) {
    throw Unsupported("Graph::add: kernel '" + kernel.name() + "' was built bounds-checked (WEFT_BOUNDS_CHECK=1), "
                      "whose launches wait for their kernel and check it; launch it on a queue, or build it "
                      "with the mode off to record it");
  }
  detail::RecordedLaunch r{kernel.impl(), kernel.impl()->args(), config};
  std::lock_guard lock(g.mutex);
  g.launches.push_back(std::move(r));
  g.exec.reset();
}

void Graph::clear() {
  auto& g = checked(impl_);
  std::lock_guard lock(g.mutex);
  g.launches.clear();
  g.exec.reset();
}

Event Graph::launch(const Queue& queue, std::span<const Event> wait) const {
  auto& g = checked(impl_);
  if (!queue) throw InvalidArgument("Graph::launch: an empty Queue handle was given");
  const auto& q = queue.impl();
  if (q->device() != g.device) {
    throw InvalidArgument("Graph::launch: the graph was recorded for " + g.device->info().selector +
                          ", the queue is on " + q->device()->info().selector);
  }
  std::size_t count = 0;
  Event event;
  {
    std::lock_guard lock(g.mutex);
    count = g.launches.size();
    detail::WaitList w;
    for (const Event& e : wait) {
      if (e.impl()) w.push_back(e.impl());
    }
    detail::DeviceOrder* order = q->order_state.device;
    if (order) order->before_command(*q, w);
    event = Event(q->launch_graph(g, w.span()));
    if (order) order->after_command(q, event.impl());
  }
  if (q->log_count.load(std::memory_order_relaxed) != 0) {
    std::lock_guard lock(q->log_mutex);
    for (LaunchLog* log : q->logs) log->add("graph of " + std::to_string(count) + " launches", event);
  }
  return event;
}

namespace detail {

EventPtr QueueImpl::launch_graph(GraphImpl& graph, std::span<const EventPtr> wait) {
  if (graph.launches.empty()) return marker(wait);
  // Each launch after the previous one: implied on an in-order queue, a wait list otherwise.
  std::vector<EventPtr> chain(wait.begin(), wait.end());
  EventPtr last;
  for (const auto& r : graph.launches) {
    last = launch(r.kernel, r.args, r.config, chain);
    chain.clear();
    if (out_of_order()) chain.push_back(last);
  }
  return last;
}

}  // namespace detail
}  // namespace weft
