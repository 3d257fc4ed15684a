#include "cache/include_digest.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <set>
#include <string>
#include <vector>

#include "core/files.hpp"

namespace weft::detail {

namespace {

constexpr std::uint64_t max_header_bytes = std::uint64_t{64} << 20;
constexpr int max_depth = 64;        // deeper nesting is a cycle the set did not catch, or absurd
constexpr std::size_t max_files = 4096;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Calls visit with what follows `#include` on each include line (with the blanks C allows).
template <class F>
void for_each_include(std::string_view text, F&& visit) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    std::size_t i = 0;
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size() || line[i] != '#') continue;
    ++i;
    while (i < line.size() && is_space(line[i])) ++i;
    if (line.substr(i, 7) != "include") continue;
    i += 7;
    if (i < line.size() && !is_space(line[i]) && line[i] != '"' && line[i] != '<') continue;  // include_next...
    while (i < line.size() && is_space(line[i])) ++i;
    visit(line.substr(i));
  }
}

std::vector<std::string> include_directories(std::string_view options) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : options) {
    if (c == ' ' || c == '\t' || c == '\n') {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "-I" && i + 1 < words.size()) dirs.push_back(words[++i]);
    else if (words[i].rfind("-I", 0) == 0 && words[i].size() > 2) dirs.push_back(words[i].substr(2));
  }
  return dirs;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

class IncludeWalker {
 public:
  explicit IncludeWalker(std::string_view options) : dirs_(include_directories(options)) {}

  void walk(std::string_view text, const std::string& here, int depth) {
    for_each_include(text, [&](std::string_view rest) {
      const char open = rest.empty() ? '\0' : rest[0];
      const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
      const std::size_t end = close ? rest.find(close, 1) : std::string_view::npos;
      if (!close || end == std::string_view::npos || end == 1) {
        // #include MACRO, or malformed: the compiler decides; its text is all there is.
        hash_.update("include-unresolved").update(rest);
        return;
      }
      const std::string name(rest.substr(1, end - 1));
      hash_.update(std::string_view(&open, 1)).update(name);
      std::vector<std::string> candidates;
      if (name.front() == '/') {
        candidates.push_back(name);
      } else {
        if (open == '"') candidates.push_back(here == "." ? name : here + "/" + name);
        for (const auto& d : dirs_) candidates.push_back(d + "/" + name);
      }
      for (const auto& path : candidates) visit(path, depth);
    });
  }

  Digest finish() const { return hash_.finish(); }

 private:
  void visit(const std::string& path, int depth) {
    if (!seen_.insert(path).second) {
      hash_.update("seen").update(path);  // included twice or in a cycle: once is enough
      return;
    }
    if (depth >= max_depth || seen_.size() > max_files) {
      hash_.update("too-deep").update(path);
      return;
    }
    FileRead file = read_regular_file(AT_FDCWD, path, {.max_bytes = max_header_bytes, .follow_symlinks = true});
    if (file.missing) return;
    hash_.update("file").update(path);
    if (!file) {
      // Unreadable or huge: its identity on disk stands in for its contents.
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0) {
        hash_.update(static_cast<std::uint64_t>(st.st_size))
            .update(static_cast<std::uint64_t>(st.st_mtim.tv_sec))
            .update(static_cast<std::uint64_t>(st.st_mtim.tv_nsec))
            .update(static_cast<std::uint64_t>(st.st_ino));
      }
      hash_.update(file.problem);
      return;
    }
    hash_.update(file.data);
    walk(file.data, directory_of(path), depth + 1);
  }

  std::vector<std::string> dirs_;
  std::set<std::string> seen_;
  Hasher hash_;
};

}  // namespace

bool has_include_directive(std::string_view source) noexcept {
  // "include" preceded, across blanks, by '#': directives C allows as "#  include" too.
  for (std::size_t at = source.find("include"); at != std::string_view::npos; at = source.find("include", at + 1)) {
    std::size_t i = at;
    while (i > 0 && is_space(source[i - 1])) --i;
    if (i > 0 && source[i - 1] == '#') return true;
  }
  return false;
}

Digest include_digest(std::string_view source, std::string_view options) {
  IncludeWalker walker(options);
  walker.walk(source, ".", 0);
  return walker.finish();
}

void hash_includes(Hasher& h, std::string_view source, std::string_view options) {
  if (!has_include_directive(source)) return;
  const Digest d = include_digest(source, options);
  h.update(d.hi).update(d.lo);
}

}  // namespace weft::detail
