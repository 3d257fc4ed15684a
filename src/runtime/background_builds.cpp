#include "runtime/background_builds.hpp"

#include <cstdlib>

#include "core/lifetime.hpp"
#include "core/log.hpp"
#include "weft/error.hpp"

namespace weft::detail {

BackgroundBuilds& BackgroundBuilds::instance() {
  static Immortal<BackgroundBuilds> builds;  // never destroyed: at_exit stops its thread
  return *builds;
}

void BackgroundBuilds::submit(std::function<void()> build, bool urgent) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  if (urgent) queue_.push_front(std::move(build));
  else queue_.push_back(std::move(build));
  if (!started_) {
    started_ = true;
    thread_ = std::thread([this] { loop(); });
    // Registered after what the first build uses was made (the program cache, the
    // toolchain): it runs before their static destructors.
    std::atexit(&BackgroundBuilds::at_exit);
  }
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
