// Running another program (the host compiler), finding it on PATH, and the folder of libweft.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace weft::detail {

struct ProcessResult {
  int exit_code = -1;   // the exit status, or 128+signal when killed by one
  std::string output;   // stdout and stderr together, in order
};

/// Runs argv[0] (searched on PATH) with the given arguments, no shell involved, and
/// captures its output. Throws weft::Error when the program cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv);

/// The absolute, symlink-resolved path of an executable: name is taken as is when it holds
/// a '/', else searched on PATH. Empty when not found.
std::string find_executable(const std::string& name);

/// The folder of the loaded libweft (or of the program weft is linked into statically), where
/// its plugins are looked for (libweft_cub, libweft_vqsort); empty when unknown.
std::filesystem::path libweft_folder();

/// Splits a command line such as WEFT_CXX="ccache g++" on blanks.
std::vector<std::string> split_command(const std::string& command);

}  // namespace weft::detail
