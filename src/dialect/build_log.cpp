#include "dialect/build_log.hpp"

#include <charconv>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace weft::detail::dialect {

namespace {

// A line number as the log writes it; nullopt past int (a log is not trusted to be sane).
std::optional<int> line_number(const std::string& digits) {
  int n = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return n;
}

// std::regex matches by recursion, a stack frame per character: a log line of a megabyte (a
// compiler quoting a generated source line) would overflow the stack. Messages are shown
// to people, so the head of a line is what matters.
constexpr std::size_t max_matched_line = 2048;

}  // namespace

std::string excerpt(std::string_view source, int first, int last, int mark) {
  std::ostringstream os;
  int line = 1;
  std::size_t pos = 0;
  while (pos <= source.size() && line <= last) {
    std::size_t nl = source.find('\n', pos);
    if (nl == std::string_view::npos) nl = source.size();
    if (line >= first) {
      os << (line == mark ? "  > " : "    ") << line << " | " << source.substr(pos, nl - pos) << '\n';
    }
    if (nl == source.size()) break;
    pos = nl + 1;
    ++line;
  }
  return os.str();
}

std::string summarize_build_log(const std::string& log, std::string_view source,
                                const std::string& file_pattern) {
  // Compilers put the location first ("f.cl:4:12: error: msg", GCC, Clang, NVIDIA) or
  // the severity first ("error: f.cl:4:12: msg", PoCL's log).
  const std::regex located("(?:^|\\s)(" + file_pattern + R"():(\d+):(?:(\d+):)?\s*(fatal error|error):\s*(.*))");
  const std::regex severity_first(R"((fatal error|error):\s*()" + file_pattern + R"():(\d+):(?:(\d+):)?\s*(.*))");
  // NVRTC (EDG): "kernel.cl(4): error: identifier "x" is undefined".
  const std::regex parenthesized("(?:^|\\s)(" + file_pattern + R"()\((\d+)\):\s*(catastrophic error|error):\s*(.*))");
  std::ostringstream os;
  std::set<int> shown;
  int count = 0;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line) && count < 5) {
    if (line.size() > max_matched_line) line.resize(max_matched_line);
    std::smatch m;
    std::string file, severity, message, digits;
    if (std::regex_search(line, m, located)) {
      file = m[1];
      digits = m[2];
      severity = m[4];
      message = m[5];
    } else if (std::regex_search(line, m, parenthesized)) {
      file = m[1];
      digits = m[2];
      severity = m[3];
      message = m[4];
    } else if (std::regex_search(line, m, severity_first)) {
      severity = m[1];
      file = m[2];
      digits = m[3];
      message = m[5];
    } else {
      continue;
    }
    const std::optional<int> ln = line_number(digits);
    // Drivers name their own temporary files; the line number is what the user needs.
    const auto slash = file.find_last_of('/');
    if (slash != std::string::npos) file = file.substr(slash + 1);
    os << file << ":" << digits << ": " << severity << ": " << message << "\n";
    if (ln && shown.insert(*ln).second) os << excerpt(source, *ln, *ln, *ln);
    ++count;
  }
  if (count == 0) {
    std::istringstream again(log);
    while (std::getline(again, line) && count < 3) {
      if (line.find("error") != std::string::npos) {
        os << line.substr(0, max_matched_line) << "\n";
        ++count;
      }
    }
  }
  if (count == 0) {
    // No line says "error" (NVIDIA's OpenCL reports an unresolved function from its
    // assembler as "ptxas fatal ..."): the log's first lines, then.
    std::istringstream again(log);
    while (std::getline(again, line) && count < 12) {
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      os << line.substr(0, max_matched_line) << "\n";
      ++count;
    }
  }
  return os.str();
}

}  // namespace weft::detail::dialect
