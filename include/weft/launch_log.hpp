// A record of the kernels launched on a queue, with their events: how a test (or a user
// auditing fusion) counts the kernels an operation really ran, from the queue's own events.
//
//   weft::LaunchLog log(weft::array_queue(dev));
//   c.assign(a * b + sin(a));
//   weft::synchronize(dev);
//   for (const auto& e : log.entries())  // one entry: "weft_expr", its profiled event
//     std::cout << e.kernel << " " << (e.event.profile().end - e.event.profile().start) << " ns\n";
#pragma once

#include "weft/export.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "weft/event.hpp"
#include "weft/queue.hpp"

namespace weft {

class WEFT_API LaunchLog {
 public:
  struct Entry {
    std::string kernel;  // the kernel's name
    Event event;         // its launch event (with profiling times when the queue profiles)
  };

  /// Records every kernel launched on queue from now until stop() or the log's end.
  explicit LaunchLog(const Queue& queue);
  ~LaunchLog();
  /// Stops recording (the entries stay). Idempotent.
  void stop();
  LaunchLog(const LaunchLog&) = delete;
  LaunchLog& operator=(const LaunchLog&) = delete;

  std::vector<Entry> entries() const;

  /// Called by the queue (not by users).
  void add(const std::string& kernel, const Event& event);

 private:
  std::shared_ptr<detail::QueueImpl> queue_;
  bool listening_ = true;
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace weft
