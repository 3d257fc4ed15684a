#include "runtime/background_builds.hpp"

#include <cstdlib>

#include <pthread.h>

#include "core/lifetime.hpp"
#include "core/log.hpp"
#include "weft/error.hpp"

namespace weft::detail {

BackgroundBuilds& BackgroundBuilds::instance() {
  static Immortal<BackgroundBuilds> builds;  // never destroyed: at_exit stops its thread
  // fork(): the lock is held across it (the thread cannot be inside it then), and the child,
  // which has none of the parent's threads, starts afresh (after_fork_in_child).
  static const int forks = ::pthread_atfork([] { instance().mutex_.lock(); }, [] { instance().mutex_.unlock(); },
                                            [] { instance().after_fork_in_child(); });
  static_cast<void>(forks);
  return *builds;
}

void BackgroundBuilds::after_fork_in_child() {
  // This thread holds mutex_ (locked before the fork). The parent's build thread is not in
  // this process: its handle is let go (joining it would wait forever), the build it was
  // running is not running here, and the next submit or wait starts a thread of the child's.
  if (thread_.joinable()) thread_.detach();
  started_ = false;
  running_ = false;
  mutex_.unlock();
}

void BackgroundBuilds::start_locked() {
  if (started_) return;
  started_ = true;
  thread_ = std::thread([this] { loop(); });
  if (!exit_registered_) {
    exit_registered_ = true;
    // Registered after what the first build uses was made (the program cache, the
    // toolchain): it runs before their static destructors.
    std::atexit(&BackgroundBuilds::at_exit);
  }
}

void BackgroundBuilds::submit(std::function<void()> build, bool urgent) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  if (urgent) queue_.push_front(std::move(build));
  else queue_.push_back(std::move(build));
  start_locked();
  wake_.notify_one();
}

void BackgroundBuilds::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) break;
    std::function<void()> build = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    try {
      build();
    } catch (const std::exception& e) {
      WEFT_LOG_WARNING("a background build failed (the code already running stays): " << e.what());
    }
    lock.lock();
    running_ = false;
    ++completed_;
    idle_.notify_all();
  }
  running_ = false;
  idle_.notify_all();
}

void BackgroundBuilds::wait_idle() {
  std::unique_lock lock(mutex_);
  if (!queue_.empty() && !stopping_) start_locked();  // a forked child's queue
  idle_.wait(lock, [&] { return stopping_ || (queue_.empty() && !running_); });
}

std::uint64_t BackgroundBuilds::completed() const {
  std::lock_guard lock(mutex_);
  return completed_;
}

void BackgroundBuilds::at_exit() {
  BackgroundBuilds& b = instance();
  {
    std::lock_guard lock(b.mutex_);
    b.stopping_ = true;
    b.queue_.clear();
  }
  b.wake_.notify_all();
  if (b.thread_.joinable()) b.thread_.join();  // after the build under way
}

}  // namespace weft::detail
