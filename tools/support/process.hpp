// Running another program and capturing what it prints: the benchmark's peers (python3
// scripts) and its child processes (`weft bench-child`).
//
//   weft::tool::ProcessResult r = weft::tool::run_process({"python3", "peer.py", "100"});
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace weft::tool {

struct ProcessResult {
  int exit_code = -1;   // the exit status, or 128+signal when killed by one
  std::string output;   // stdout and stderr together, in order
};

/// Runs argv[0] (searched on PATH) with the given arguments, no shell involved, stdin from
/// /dev/null. Throws weft::Error when the program cannot be started. on_line, when given, is
/// called with each line (without its newline) as soon as the program has printed it, so that
/// a caller can show progress before the program ends.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::function<void(const std::string&)>& on_line = {});

}  // namespace weft::tool
