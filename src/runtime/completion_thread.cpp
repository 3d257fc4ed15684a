#include "runtime/completion_thread.hpp"

#include <exception>

#include "core/lifetime.hpp"
#include "core/log.hpp"

namespace weft::detail {

CompletionThread& CompletionThread::get() {
  static Immortal<CompletionThread> instance;
  return *instance;
}

CompletionThread::CompletionThread() {
  std::thread t([this] { run(); });
  id_ = t.get_id();
  // Detached: a process may end with callbacks pending (a kernel that never ends), and
  // joining at exit would hang it. The object it uses is never destroyed.
  t.detach();
}

void CompletionThread::post(std::function<void()> job) {
  bool wake;
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(job));
    wake = idle_;
    idle_ = false;
  }
  if (wake) cv_.notify_one();
}

void CompletionThread::run() {
  // Jobs are taken a batch at a time: under load (many events completing at once) one lock
  // and no wake-up serve them all.
  std::vector<std::function<void()>> batch;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      while (pending_.empty()) {
        idle_ = true;
        cv_.wait(lock);
      }
      idle_ = false;
      batch.swap(pending_);
    }
    for (auto& job : batch) {
      try {
        job();
      } catch (const std::exception& e) {
        failed_.fetch_add(1, std::memory_order_relaxed);
        WEFT_LOG_WARNING("an event callback threw (the completion thread goes on): " << e.what());
      } catch (...) {
        failed_.fetch_add(1, std::memory_order_relaxed);
        WEFT_LOG_WARNING("an event callback threw something that is not a std::exception (the completion "
                         "thread goes on)");
      }
      // Drop what the job held (events, Python references) before the next runs.
      job = nullptr;
      delivered_.fetch_add(1, std::memory_order_relaxed);
    }
    batch.clear();
  }
}

}  // namespace weft::detail
