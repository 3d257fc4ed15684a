// A minimal JSON writer for the command-line program's machine-readable output.
#pragma once

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>

namespace weft::tool {

class JsonWriter {
 public:
  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  JsonWriter& key(std::string_view k) {
    comma();
    string(k);
    out_ << ": ";
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::string_view v) {
    comma();
    string(v);
    return *this;
  }
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& value(bool v) {
    comma();
    out_ << (v ? "true" : "false");
    return *this;
  }
  template <class T>
    requires std::is_arithmetic_v<T>
  JsonWriter& value(T v) {
    comma();
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isfinite(v)) {
        out_ << "null";
      } else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
        out_ << buf;
      }
    } else {
      out_ << v;
    }
    return *this;
  }
  JsonWriter& null() {
    comma();
    out_ << "null";
    return *this;
  }
  std::string str() const { return out_.str(); }

 private:
  JsonWriter& open(char c) {
    comma();
    out_ << c;
    first_ = true;
    ++depth_;
    return *this;
  }
  JsonWriter& close(char c) {
    --depth_;
    out_ << '\n' << std::string(static_cast<std::size_t>(depth_) * 2, ' ') << c;
    first_ = false;
    return *this;
  }
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (depth_ > 0) {
      if (!first_) out_ << ',';
      out_ << '\n' << std::string(static_cast<std::size_t>(depth_) * 2, ' ');
    }
    first_ = false;
  }
  void string(std::string_view s) {
    out_ << '"';
    for (char c : s) {
      switch (c) {
        case '"': out_ << "\\\""; break;
        case '\\': out_ << "\\\\"; break;
        case '\n': out_ << "\\n"; break;
        case '\t': out_ << "\\t"; break;
        case '\r': out_ << "\\r"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out_ << buf;
          } else {
            out_ << c;
          }
      }
    }
    out_ << '"';
  }

  std::ostringstream out_;
  int depth_ = 0;
  bool first_ = true;
  bool after_key_ = false;
};

}  // namespace weft::tool
