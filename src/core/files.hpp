// Small file-system helpers with error reporting in weft's terms.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace weft::detail {

/// The whole file, or nullopt when it cannot be read.
std::optional<std::string> read_file(const std::string& path);

/// Writes data to path atomically: a temporary file in the same directory, fsync'd data,
/// then rename(). Readers see the old file or the new one, never a part. Returns false
/// (and leaves nothing behind) when the directory is not writable.
bool write_file_atomic(const std::string& path, std::string_view data);

/// Creates a directory and its parents; false when that is not possible.
bool make_directories(const std::string& path);

/// A fresh private directory under $TMPDIR (or /tmp), removed with its contents on
/// destruction.
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

}  // namespace weft::detail
