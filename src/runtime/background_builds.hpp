// Program builds that run on a thread of their own while the caller goes on without them (a
// new expression evaluated stepwise on the host's prebuilt kernels: array/stepwise.hpp). One
// build at a time, in the order submitted: a build is a compiler process, and running several
// at once would take the cores the caller's kernels run on.
//
// At process exit the build under way is finished (its compiler process and temporary
// directory are not left behind) and the ones not started are dropped: the next process
// that needs them builds them again.
//
// After fork() the child has none of the parent's threads: it starts a build thread of its
// own when it needs one, and the build that was under way in the parent is not done there
// (the queued ones are). A child that exits does not wait for the parent's thread.
//
//   BackgroundBuilds::instance().submit([&builder, source] { builder.build(source, ""); }, true);
//   BackgroundBuilds::instance().wait_idle();   // tests: every submitted build done
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace weft::detail {

class BackgroundBuilds {
 public:
  /// The process's queue (never destroyed; its thread starts with the first submit).
  static BackgroundBuilds& instance();

  /// Runs build on the background thread, after those submitted before (urgent: before those
  /// not yet started). An exception it throws is logged as a warning and goes no further
  /// (the caller already has working code).
  void submit(std::function<void()> build, bool urgent = false);
  /// Waits until every build submitted so far has run.
  void wait_idle();
  /// Builds that have run since the process started.
  std::uint64_t completed() const;

  BackgroundBuilds() = default;
  BackgroundBuilds(const BackgroundBuilds&) = delete;
  BackgroundBuilds& operator=(const BackgroundBuilds&) = delete;

 private:
  void loop();
  void start_locked();  // the thread, unless running (mutex_ held)
  void after_fork_in_child();
  static void at_exit();

  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<std::function<void()>> queue_;
  bool running_ = false;   // a build is under way
  bool stopping_ = false;  // the process is exiting
  bool started_ = false;
  bool exit_registered_ = false;
  std::uint64_t completed_ = 0;
  std::thread thread_;
};

}  // namespace weft::detail
