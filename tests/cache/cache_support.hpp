// Helpers the program-cache tests share.
#pragma once

#include <sys/stat.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cache/program_cache.hpp"

namespace weft::detail {

/// A fresh program each run, so the first build really compiles. Its kernel `fill` writes
/// x[i] = 3*i + bias (the cache worker checks that).
inline std::string unique_program(int salt, const std::string& prefix = "") {
  std::random_device rd;
  return prefix + "// run " + std::to_string(rd()) + "-" + std::to_string(rd()) + "-" + std::to_string(salt) +
         "\n__kernel void fill(__global int *x, int bias) {\n"
         "    int i = get_global_id(0);\n    x[i] = 3 * i + bias;\n}\n";
}

inline std::vector<CacheEntryInfo> host_entries(ProgramCache& cache) {
  std::vector<CacheEntryInfo> out;
  for (auto& e : cache.list()) {
    if (e.backend == "host") out.push_back(std::move(e));
  }
  return out;
}

/// Sets an environment variable for the life of the object.
struct ScopedEnv {
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  const char* name_;
  std::optional<std::string> old_;
};

/// Sets the process umask for the life of the object.
struct ScopedUmask {
  explicit ScopedUmask(mode_t mask) : old_(::umask(mask)) {}
  ScopedUmask(const ScopedUmask&) = delete;
  ScopedUmask& operator=(const ScopedUmask&) = delete;
  ~ScopedUmask() { ::umask(old_); }
  mode_t old_;
};

inline unsigned mode_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return 01000000;  // no such file: matches no mode
  return st.st_mode & 07777;
}

}  // namespace weft::detail
