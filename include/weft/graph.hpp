// Graphs: kernel launches recorded once and replayed as one submission.
//
//   weft::Graph g(dev);
//   for (int step = 0; step < 100; ++step) g.add(kernel, n);   // snapshots the arguments
//   weft::Event e = g.launch(queue);                            // all 100, in that order
//   e.wait();
//
// A small kernel costs its launch: a few microseconds of host time per call on a GPU, more
// than the kernel itself. A graph pays that once per replay: on CUDA devices it becomes a
// CUDA graph (instantiated at the first launch after a change, one cuGraphLaunch per
// replay); on the host backend and OpenCL devices its launches are enqueued one after the
// other in one call. The launches run in the recorded order, each after the previous one
// has finished, whatever the queue's ordering.
//
// add() checks the launch as Queue::launch does (sizes, arguments set, buffers on the
// graph's device) and copies the kernel's current arguments: setting them again afterwards
// changes later records, not this one. The graph holds its kernels and buffers alive.
// Graphs record kernel launches only (no copies or fills). A Graph may be launched on any
// queue of its device, any number of times; launches of one graph from several threads
// are serialized by the graph.
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <memory>
#include <span>

#include "weft/device.hpp"
#include "weft/event.hpp"
#include "weft/ndrange.hpp"
#include "weft/program.hpp"

namespace weft {

class Queue;

namespace detail {
struct GraphImpl;
}

class WEFT_API Graph {
 public:
  Graph() = default;
  explicit Graph(const Device& device);

  Device device() const;
  /// The number of launches recorded.
  std::size_t size() const;
  bool empty() const { return size() == 0; }

  /// Records a launch of kernel with its current arguments (see Queue::launch).
  void add(const Kernel& kernel, const NDRange& global, const NDRange& local = {},
           const NDRange& offset = {});
  /// Sets every argument, then records.
  template <class... A>
  void add_with(Kernel kernel, const NDRange& global, const NDRange& local, const A&... args) {
    kernel.set_args(args...);
    add(kernel, global, local);
  }
  /// Removes every recorded launch.
  void clear();

  /// Runs every recorded launch on queue (after wait); the event completes with the last.
  Event launch(const Queue& queue, std::span<const Event> wait = {}) const;

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  const std::shared_ptr<detail::GraphImpl>& impl() const noexcept { return impl_; }

 private:
  std::shared_ptr<detail::GraphImpl> impl_;
};

}  // namespace weft
