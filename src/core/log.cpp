#include "core/log.hpp"

#include <cstdio>
#include <mutex>
#include <string>

#include "weft/error.hpp"

namespace weft::detail {

LogLevel log_level() noexcept {
  static const LogLevel level = [] {
    try {
      return config().log_level;
    } catch (const Error&) {
      return LogLevel::warning;
    }
  }();
  return level;
}

void log_message(LogLevel level, std::string_view message) {
  static std::mutex mutex;
  const char* tag = level == LogLevel::debug     ? "debug"
                    : level == LogLevel::info    ? "info"
                    : level == LogLevel::warning ? "warning"
                                                 : "error";
  std::string line = "weft: [" + std::string(tag) + "] " + std::string(message) + "\n";
  std::lock_guard lock(mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace weft::detail
