// Logging to stderr, gated by WEFT_LOG. Messages are built only when their level is on:
//
//   WEFT_LOG_DEBUG("cache hit for " << key.hex());
#pragma once

#include <sstream>
#include <string_view>

#include "weft/config.hpp"

namespace weft::detail {

/// The level from WEFT_LOG; warning when the variable is malformed (that error is raised
/// by config() at the first real entry point, not by a log call).
LogLevel log_level() noexcept;
void log_message(LogLevel level, std::string_view message);

}  // namespace weft::detail

#define WEFT_LOG_AT(level, expr)                                      \
  do {                                                                \
    if (::weft::detail::log_level() >= (level)) {                     \
      std::ostringstream weft_log_stream_;                            \
      weft_log_stream_ << expr;                                       \
      ::weft::detail::log_message((level), weft_log_stream_.str());   \
    }                                                                 \
  } while (0)
#define WEFT_LOG_DEBUG(expr) WEFT_LOG_AT(::weft::LogLevel::debug, expr)
#define WEFT_LOG_INFO(expr) WEFT_LOG_AT(::weft::LogLevel::info, expr)
#define WEFT_LOG_WARNING(expr) WEFT_LOG_AT(::weft::LogLevel::warning, expr)
