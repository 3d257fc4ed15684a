// The prebuilt kernels' generator compiles its programs several to one translation unit
// (tools/host_prebuilt_gen.cpp): the compiler's start, the precompiled prelude's load and the
// link are paid once per batch instead of once per program (docs/HOST_PREBUILT.md).
//
// Each program's translation (dialect/host_translate.cpp) goes into the unit as it is, but for
// its first line (the prelude's include, once per unit), its kernel namespace (nested in
// weft_kernel as the program's infix) and its entry points (weft_run_<infix>_<kernel>, ...; the
// infix is HostPrebuilt::batch_infix of the translation, which the loader computes again);
// the macros it defines are undefined after it and the prelude's keyword macros, which its
// launchers undefine, are defined again before the next.
//
//   std::vector<BatchProgram> programs = ...;   // translation text and flags of each
//   std::vector<BatchResult> out = compile_batches(tc, programs, 2);
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "backends/host/host_api.hpp"

namespace weft::detail {

struct BatchProgram {
  std::string translation;         // dialect::Translation::text
  std::vector<std::string> flags;  // the program's compiler flags (its build options)
  std::string source;              // its dialect source, for a build error's message
};

struct BatchResult {
  std::string image;         // the shared object holding the program (with others of its batch)
  std::exception_ptr error;  // set when the program does not build on its own
};

/// The program's part of a batch unit; nullopt for a translation of another shape (compiled
/// alone then).
std::optional<std::string> batch_part(const std::string& translation, bool first);

/// Compiles programs in batches of about `per_batch`, `parallel` compiles at a time; a batch
/// that does not build is compiled again program by program. Results in the programs' order.
std::vector<BatchResult> compile_batches(const HostToolchain& tc, const std::vector<BatchProgram>& programs,
                                         unsigned parallel, std::size_t per_batch = 24);

}  // namespace weft::detail
