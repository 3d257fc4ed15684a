// weft_host_prebuilt_gen PACK [PREVIOUS...]: makes the pack of kernels the library ships
// prebuilt for the host backend (src/backends/host/host_prebuilt.hpp), at build time.
//
// It runs the array library's standard operations per dtype on the host device (arithmetic,
// comparisons, bitwise and logical operators, the math functions, where, clip, casts, full
// reductions; arrays with arrays of the same and of other dtypes, and with plain numbers)
// and records every program they build: the dialect source the array layer generates is the
// one it generates at run time, so a user's expression that needs one of these operations
// finds it by the same key. Each is compiled by compile_host_module with the library's own
// flags (-march=native: the pack serves the machine and compiler it was built with, as the
// program cache does; elsewhere nothing matches), stripped. Images of the PREVIOUS packs (the one
// this build made before; another build tree's of the same machine, WEFT_HOST_PREBUILT_SEED in
// CMake: the kernels do not depend on the library's own build flags, so a sanitizer build
// takes the release build's) whose key is unchanged are taken as they are.
//
// The operations run in rounds, on four threads per core: the compile hook defers each program
// not compiled yet, and between rounds the programs a round asked for are compiled several to
// a translation unit (tools/host_prebuilt_batch.hpp), one unit per core at a time; the
// operations that waited run again. The compiler's start, the prelude and the link are paid
// once per batch, and each program keeps its translation, flags and code
// (docs/HOST_PREBUILT.md).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <unistd.h>

#include "backends/host/host_compiler.hpp"
#include "backends/host/host_prebuilt.hpp"
#include "backends/host/host_prelude_header.hpp"
#include "core/files.hpp"
#include "host_prebuilt_batch.hpp"
#include "weft/weft.hpp"

namespace {

using namespace weft;
using Binary = std::function<Expr(const Expr&, const Expr&)>;
using Unary = std::function<Expr(const Expr&)>;

const std::vector<DType> dtypes = {DType::bool_, DType::int32, DType::int64, DType::float32, DType::float64};
const std::vector<DType> numeric = {DType::int32, DType::int64, DType::float32, DType::float64};

// What the compile hook throws for a program it has not compiled yet: the operation that
// asked for it runs again in the next round, when its batch is compiled.
struct Deferred : Error {
  Deferred() : Error("deferred to the next batch") {}
};
// Seconds since the generator started (the rounds' lines say where the time goes).
double seconds() {
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// True while the operations run in rounds (the inputs' programs, made before, compile at once).
std::atomic<bool> deferring{false};

// Runs what may be refused for a dtype (bitwise on floats, ...): refused is not recorded.
// False when it is to run again after the round's compiles: it waited for a program, or
// failed otherwise than in a build (which may be a deferral seen through another error).
bool run_guarded(const std::function<void()>& f) {
  try {
    f();
  } catch (const BuildError& e) {
    // An operation the array layer offers but cannot build: said, not packed.
    std::fprintf(stderr, "weft_host_prebuilt_gen: an operation does not build: %s\n", e.what());
  } catch (const Error&) {
    return false;
  }
  return true;
}

// Runs the operations in rounds: each round runs those not done yet (their programs the
// compile hook has compiled, or defers: Deferred), then compile_round() compiles the
// deferred programs; false from it (nothing deferred) ends the rounds.
void run_workloads(const Device& dev, unsigned threads, const std::function<bool()>& compile_round) {
  // Each operation is a task; the tasks run on several threads, so that the compiles they
  // cause run side by side (the build machine's cores).
  std::vector<std::function<void()>> tasks;
  const auto attempt = [&tasks](std::function<void()> f) { tasks.push_back(std::move(f)); };
  const std::vector<std::pair<const char*, Binary>> every = {
      {"+", [](auto& a, auto& b) { return a + b; }},
      {"-", [](auto& a, auto& b) { return a - b; }},
      {"*", [](auto& a, auto& b) { return a * b; }},
      {"/", [](auto& a, auto& b) { return a / b; }},
      {"//", [](auto& a, auto& b) { return floor_divide(a, b); }},
      {"%", [](auto& a, auto& b) { return remainder(a, b); }},
      {"**", [](auto& a, auto& b) { return power(a, b); }},
      {"maximum", [](auto& a, auto& b) { return maximum(a, b); }},
      {"minimum", [](auto& a, auto& b) { return minimum(a, b); }},
      {"<", [](auto& a, auto& b) { return a < b; }},
      {"<=", [](auto& a, auto& b) { return a <= b; }},
      {">", [](auto& a, auto& b) { return a > b; }},
      {">=", [](auto& a, auto& b) { return a >= b; }},
      {"==", [](auto& a, auto& b) { return a == b; }},
      {"!=", [](auto& a, auto& b) { return a != b; }},
      {"&", [](auto& a, auto& b) { return a & b; }},
      {"|", [](auto& a, auto& b) { return a | b; }},
      {"^", [](auto& a, auto& b) { return a ^ b; }},
      {"<<", [](auto& a, auto& b) { return a << b; }},
      {">>", [](auto& a, auto& b) { return a >> b; }},
      {"logical_and", [](auto& a, auto& b) { return logical_and(a, b); }},
      {"logical_or", [](auto& a, auto& b) { return logical_or(a, b); }},
      {"hypot", [](auto& a, auto& b) { return hypot(a, b); }},
      {"atan2", [](auto& a, auto& b) { return atan2(a, b); }},
      {"copysign", [](auto& a, auto& b) { return copysign(a, b); }},
      {"fmax", [](auto& a, auto& b) { return fmax(a, b); }},
      {"fmin", [](auto& a, auto& b) { return fmin(a, b); }},
      {"logaddexp", [](auto& a, auto& b) { return logaddexp(a, b); }},
  };
  const std::vector<Unary> unary = {
      [](auto& a) { return -a; },       [](auto& a) { return ~a; },        [](auto& a) { return abs(a); },
      [](auto& a) { return sqrt(a); },  [](auto& a) { return exp(a); },    [](auto& a) { return log(a); },
      [](auto& a) { return sin(a); },   [](auto& a) { return cos(a); },    [](auto& a) { return tan(a); },
      [](auto& a) { return asin(a); },  [](auto& a) { return acos(a); },   [](auto& a) { return atan(a); },
      [](auto& a) { return sinh(a); },  [](auto& a) { return cosh(a); },   [](auto& a) { return tanh(a); },
      [](auto& a) { return floor(a); }, [](auto& a) { return ceil(a); },   [](auto& a) { return trunc(a); },
      [](auto& a) { return rint(a); },  [](auto& a) { return square(a); }, [](auto& a) { return sign(a); },
      [](auto& a) { return isnan(a); }, [](auto& a) { return isinf(a); }, [](auto& a) { return isfinite(a); },
      [](auto& a) { return logical_not(a); }, [](auto& a) { return reciprocal(a); }, [](auto& a) { return cbrt(a); },
      [](auto& a) { return fabs(a); },  [](auto& a) { return signbit(a); },
  };
  const Shape shape{8};
  std::map<DType, Array> x, y;
  for (DType t : dtypes) {
    x[t] = Array::full(shape, 1, t, dev);
    y[t] = Array::full(shape, 1, t, dev);
  }
  for (DType t : dtypes) {
    const Array& a = x[t];
    const Array& b = y[t];
    for (const auto& entry : every) {
      const Binary& op = entry.second;
      attempt([=, &x, &y, &every] { eval(op(a, b)); });
      attempt([=, &x, &y, &every] { eval(op(a, Expr(2.0))); });
      attempt([=, &x, &y, &every] { eval(op(Expr(2.0), a)); });
      attempt([=, &x, &y, &every] { eval(op(a, Expr(3))); });
      attempt([=, &x, &y, &every] { eval(op(Expr(3), a)); });
    }
    for (const auto& op : unary) attempt([=, &x, &y, &every] { eval(op(a)); });
    attempt([=, &x, &y, &every] { eval(where(x.at(DType::bool_), a, b)); });
    attempt([=, &x, &y, &every] { eval(clip(a, Expr(0.0), Expr(1.0))); });
    attempt([=, &x, &y, &every] { eval(clip(a, Expr(0), Expr(1))); });
    for (DType to : dtypes) attempt([=, &x, &y, &every] { eval(astype(a, to)); });
    attempt([=, &x, &y, &every] { sum(a).get(); });
    attempt([=, &x, &y, &every] { min(a).get(); });
    attempt([=, &x, &y, &every] { max(a).get(); });
    attempt([=, &x, &y, &every] { sum(a, {0}); });
    attempt([=, &x, &y, &every] { prod(a, {0}); });
    attempt([=, &x, &y, &every] { min(a, {0}); });
    attempt([=, &x, &y, &every] { max(a, {0}); });
    attempt([=, &x, &y, &every] { mean(a, {0}); });
    attempt([=, &x, &y, &every] { any(a, {0}); });
    attempt([=, &x, &y, &every] { all(a, {0}); });
  }
  // Products fed into sums, which the compiler fuses into FMAs (so they are never evaluated
  // stepwise, array/stepwise.hpp): the common forms whole, and their reductions.
  for (DType t : {DType::float32, DType::float64}) {
    const Array a = x.at(t);
    const Array b = y.at(t);
    const Array c = Array::full(shape, 2, t, dev);
    const std::vector<std::function<Expr()>> fused = {
        [=] { return a * b + c; }, [=] { return a * b - c; }, [=] { return c + a * b; },
        [=] { return c - a * b; }, [=] { return a * b + a; }, [=] { return a * a + b; },
        [=] { return a * 2.0 + b; }, [=] { return a * b + 1.0; }, [=] { return a * b + a * c; },
        [=] { return a * b - a * c; }, [=] { return square(a) + square(b); }, [=] { return a * b; },
    };
    for (const auto& f : fused) {
      attempt([=, &x, &y, &every] { eval(f()); });
      attempt([=, &x, &y, &every] { sum(f()).get(); });
      attempt([=, &x, &y, &every] { sum(f(), {0}); });
      attempt([=, &x, &y, &every] { mean(f(), {0}); });
    }
  }
  // Arrays of two dtypes: the arithmetic and comparisons.
  for (DType s : numeric) {
    for (DType t : numeric) {
      if (s == t) continue;
      for (std::size_t k = 0; k < 15; ++k) attempt([=, &x, &y, &every] { eval(every[k].second(x.at(s), y.at(t))); });
    }
  }
  std::vector<std::size_t> todo(tasks.size());
  for (std::size_t k = 0; k < todo.size(); ++k) todo[k] = k;
  deferring = true;
  do {
    std::vector<char> done(todo.size(), 0);
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
      for (std::size_t k = next++; k < todo.size(); k = next++) done[k] = run_guarded(tasks[todo[k]]);
      synchronize(dev);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    std::vector<std::size_t> left;
    for (std::size_t k = 0; k < todo.size(); ++k) {
      if (!done[k]) left.push_back(todo[k]);
    }
    std::printf("weft_host_prebuilt_gen: round of %zu operations, %zu to run again (%.1f s)\n", todo.size(), left.size(),
                seconds());
    todo = std::move(left);
  } while (compile_round() && !todo.empty());
  deferring = false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PACK [PREVIOUS...]\n", argv[0]);
    return 2;
  }
  namespace fs = std::filesystem;
  const std::string out = argv[1];
  seconds();
  const fs::path cache = fs::temp_directory_path() / ("weft-prebuilt-gen-" + std::to_string(::getpid()));
  ::setenv("WEFT_CACHE_DIR", cache.c_str(), 1);
  ::setenv("WEFT_HOST_PREBUILT", "0", 1);
  ::unsetenv("WEFT_BOUNDS_CHECK");
  int status = 0;
  try {
    // Packs made before (this build's last one, another build tree's): a missing or
    // malformed one is passed over. Their images are found by key, which holds the toolchain.
    std::vector<std::string> blobs;
    for (int k = 2; k < argc; ++k) {
      if (auto blob = weft::detail::read_file(argv[k])) blobs.push_back(std::move(*blob));
    }
    std::vector<weft::detail::HostPrebuilt> previous;
    for (const auto& blob : blobs) {
      try {
        previous.emplace_back(blob);
      } catch (const weft::Error&) {
      }
    }
    const auto find_previous = [&](const weft::detail::Digest& key) -> std::optional<std::string_view> {
      for (const auto& pack : previous) {
        if (auto image = pack.find(key)) return image;
      }
      return std::nullopt;
    };
    // The library's own flags (the same code a user's build makes on this machine), the
    // shared objects stripped (that changes no instruction).
    weft::detail::HostToolchain tc = weft::detail::HostToolchain::get();
    tc.flags.push_back("-Wl,--strip-all");
    std::map<std::string, std::pair<weft::detail::Digest, std::string>> images;  // by key, in one order
    std::map<std::string, std::exception_ptr> failed;                            // programs that do not build
    std::map<std::string, std::pair<weft::detail::Digest, weft::detail::BatchProgram>> pending;  // of this round
    std::size_t compiled = 0, units = 0;
    std::mutex mutex;  // the hook runs on the workload's threads
    weft::detail::set_host_compile_hook([&](const weft::detail::dialect::Translation& tr,
                                            const std::vector<std::string>& flags, std::string_view source) {
      const weft::detail::Digest key = weft::detail::HostPrebuilt::key(source, flags);
      std::lock_guard lock(mutex);
      if (auto it = images.find(key.hex()); it != images.end()) return it->second.second;
      if (auto it = failed.find(key.hex()); it != failed.end()) std::rethrow_exception(it->second);
      if (auto old = find_previous(key)) {
        images[key.hex()] = {key, std::string(*old)};
        return std::string(*old);
      }
      if (!deferring) {
        std::string image = weft::detail::compile_host_module(tc, tr.text, flags, source, weft::detail::PreludeHeaders::instance());
        images[key.hex()] = {key, image};
        ++compiled;
        ++units;
        return image;
      }
      pending.emplace(key.hex(), std::make_pair(key, weft::detail::BatchProgram{tr.text, flags, std::string(source)}));
      throw Deferred();
    });
    // One thread per core this process may run on.
    cpu_set_t cpus;
    const int cores = ::sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
    const unsigned parallel = static_cast<unsigned>(std::clamp(cores, 1, 16));
    // Between rounds: the programs the round asked for, compiled in batches (in key order, so
    // that a pack's batches do not depend on the threads' timing).
    const auto compile_round = [&] {
      std::lock_guard lock(mutex);
      if (pending.empty()) return false;
      std::vector<weft::detail::BatchProgram> programs;
      std::vector<weft::detail::Digest> keys;
      for (auto& [hex, entry] : pending) {
        keys.push_back(entry.first);
        programs.push_back(std::move(entry.second));
      }
      pending.clear();
      const auto results = weft::detail::compile_batches(tc, programs, parallel);
      std::set<std::string> distinct;
      for (std::size_t i = 0; i < results.size(); ++i) {
        if (results[i].error) {
          failed[keys[i].hex()] = results[i].error;
          continue;
        }
        images[keys[i].hex()] = {keys[i], results[i].image};
        ++compiled;
        distinct.insert(results[i].image);
      }
      units += distinct.size();
      std::printf("weft_host_prebuilt_gen: %zu programs compiled in %zu units (%.1f s)\n", programs.size(),
                  distinct.size(), seconds());
      return true;
    };
    // The rounds' operations wait on the disk more than they compute (each program they load
    // is stored in the generator's program cache, synced): four threads per core.
    run_workloads(weft::device("host"), std::min(4 * parallel, 32u), compile_round);
    // The marker of a pack made for this toolchain (an empty source, an empty image).
    const weft::detail::Digest marker = weft::detail::HostPrebuilt::key("", {});
    images[marker.hex()] = {marker, std::string()};
    std::vector<std::pair<weft::detail::Digest, std::string>> list;
    for (auto& [hex, entry] : images) list.push_back(std::move(entry));
    if (!weft::detail::write_file_atomic(out, weft::detail::HostPrebuilt::encode(list))) {
      throw weft::Error("cannot write " + out);
    }
    std::printf("weft_host_prebuilt_gen: %zu kernels (%zu compiled, in %zu shared objects) in %s\n", list.size(), compiled,
                units, out.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft_host_prebuilt_gen: %s\n", e.what());
    status = 1;
  }
  std::error_code ec;
  fs::remove_all(cache, ec);
  return status;
}
