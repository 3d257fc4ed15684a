// The callback thread that runs Python work for backend threads (event callbacks, releases of
// Python references), keeping objects alive until events complete, lists of events, and the
// interruptible wait.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "callbacks.hpp"

#include <atomic>
#include "common.hpp"

namespace weftpy {

namespace {

/// Runs Python work that backend threads ask for on a thread of its own: a backend's
/// callback thread never waits for the GIL (it may hold locks that a thread holding the GIL
/// needs, e.g. PoCL's event lock while the main thread asks an event's status).
class Dispatcher {
 public:
  static Dispatcher& get() {
    static Dispatcher* d = new Dispatcher();  // NOLINT: lives to process exit
    return *d;
  }
  /// Queues job (run later with the GIL held); callable from any thread, GIL or not.
  void post(std::function<void()> job) {
    std::lock_guard lock(mutex_);
    if (stopped_) return;  // after interpreter shutdown began: the job (and its references) is dropped
    if (!worker_.joinable()) worker_ = std::thread([this] { run(); });
    jobs_.push_back(std::move(job));
    cv_.notify_one();
  }
  /// Finishes queued jobs and stops the thread (atexit, with the GIL held by the caller).
  void shutdown() {
    std::thread t;
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
      cv_.notify_one();
      t = std::move(worker_);
    }
    if (t.joinable()) {
      nb::gil_scoped_release unlocked;
      t.join();
    }
  }

 private:
  void run() {
    // Jobs are run a batch at a time under one hold of the GIL: taking it per job would cost
    // up to a switch interval (5 ms) each while the main thread runs Python code, and
    // thousands of awaited events complete at once.
    std::deque<std::function<void()>> batch;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return stopped_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        batch.swap(jobs_);
      }
      PyGILState_STATE g = PyGILState_Ensure();
      for (auto& job : batch) {
        try {
          job();
        } catch (...) {
          // A job's own failure (a conversion that threw) must not end the thread.
          if (PyErr_Occurred()) PyErr_WriteUnraisable(nullptr);
        }
        job = nullptr;  // what it held (Python references among them) goes with the GIL held
      }
      PyGILState_Release(g);
      batch.clear();
    }
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::thread worker_;
  bool stopped_ = false;
};

}  // namespace

void post_to_python(std::function<void()> job) { Dispatcher::get().post(std::move(job)); }

void stop_callback_thread() { Dispatcher::get().shutdown(); }

void keep_alive_until(const weft::Event& event, nb::handle obj) {
  if (!event || event.done()) return;
  auto keep = std::make_shared<PyRef>(obj);
  event.then([keep](const weft::Event&) {});
}

std::vector<weft::Event> event_list(nb::handle events, const char* what) {
  std::vector<weft::Event> out;
  if (events.is_none()) return out;
  const auto wrong = [&](nb::handle h) {
    throw nb::type_error((std::string(what) + ": expected a list of weft.Event, got " +
                          nb::cast<std::string>(nb::type_name(h.type())))
                             .c_str());
  };
  if (nb::isinstance<PyEvent>(events) || !PyObject_HasAttrString(events.ptr(), "__iter__")) wrong(events);
  for (nb::handle h : events) {
    if (!nb::isinstance<PyEvent>(h)) wrong(h);
    out.push_back(nb::cast<PyEvent&>(h).event);
  }
  return out;
}

std::atomic<bool>& interrupted_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

bool a_wait_was_interrupted() { return interrupted_flag().load(std::memory_order_relaxed); }

void wait_interruptible(const PyEvent& pe) {
  const weft::Event& e = pe.event;
  if (!e.done()) {
    if (pe.queue) pe.queue.flush();
    using clock = std::chrono::steady_clock;
    {
      // The event is polled before a callback is asked for: a callback comes from the backend's
      // completion thread some tens of microseconds after the work ends (on an H200, finish()
      // after a 70 us kernel took 142 us with a 30 us poll, where CuPy and Numba, which spin,
      // wait about the kernel's time). On a GPU the poll is the driver's event query and the
      // work needs no core of the host, so it goes on for up to 2 ms; on a CPU device (host
      // threads, PoCL) the work needs every core, so the poll stays short.
      const bool gpu = pe.queue && pe.queue.device().type() != weft::DeviceType::cpu;
      nb::gil_scoped_release unlocked;
      const auto spin_until =
          clock::now() + (gpu ? std::chrono::microseconds(2000) : std::chrono::microseconds(30));
      while (!e.done() && clock::now() < spin_until) std::this_thread::yield();
    }
    if (!e.done()) {
      struct Signal {
        std::mutex mutex;
        std::condition_variable cv;
        bool fired = false;
      };
      auto signal = std::make_shared<Signal>();
      e.then([signal](const weft::Event&) {
        std::lock_guard lock(signal->mutex);
        signal->fired = true;
        signal->cv.notify_all();
      });
      for (;;) {
        bool fired;
        {
          nb::gil_scoped_release unlocked;
          std::unique_lock lock(signal->mutex);
          fired = signal->cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return signal->fired; });
        }
        if (fired) break;
        if (PyErr_CheckSignals() != 0) {
          interrupted_flag().store(true, std::memory_order_relaxed);
          throw nb::python_error();
        }
      }
    }
  }
  e.wait();  // raises the event's error, if it failed
}

}  // namespace weftpy
