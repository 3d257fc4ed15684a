// Files the command-line tools write for the user (--out, --png, --json) and read from them
// (--vertices-file), with the care of a tool that may be pointed at anything.
//
//   weft::tool::write_output_file("mask.npy", bytes);          // temp file + rename
//   weft::tool::write_output_file("/dev/stdout", json);        // written through, no rename
//   std::string text = weft::tool::read_input_file("v.txt", 64 << 20, "--vertices-file");
//
// Writing, by what the path names:
//   - nothing yet: a new file, written to a temporary file in the same directory and renamed
//     into place (a reader sees no half file), with the permissions 0666 less the umask;
//   - a regular file of the user's: replaced the same way, keeping its permissions and group;
//   - a regular file of another user's that the user may write: written in place (truncated),
//     so it keeps its owner and permissions, as shell redirection does;
//   - this process's own stdout or stderr (/dev/stdout, /proc/self/fd/1, or the file they
//     are redirected to): written to that stream, after what was printed before;
//   - a FIFO or a character device (/dev/null, a terminal): written through, without
//     truncating or renaming;
//   - a symlink: followed only when the link belongs to the user or to root and leads to a
//     regular file of the user's (then that file is replaced as above and the link stays a
//     link) or to a FIFO or character device; a dangling link, or one to another user's file,
//     is refused, so a link planted in a shared directory cannot aim the write elsewhere;
//   - a directory, a block device or a socket: refused.
// Every refusal and failure throws weft::Error naming the path and why.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace weft::tool {

void write_output_file(const std::string& path, std::string_view data);

/// The whole of a regular file, a pipe or a FIFO, at most max_bytes of it: more is an error,
/// and so is anything else (a directory, /dev/zero). A FIFO no one writes to reads as
/// empty instead of waiting. `what` names the file in messages (the option it came from).
std::string read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what);

/// A fresh private directory in the system's temporary directory, removed with its
/// contents on destruction.
class TempDir {
 public:
  explicit TempDir(std::string_view prefix = "weft-");
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

}  // namespace weft::tool
