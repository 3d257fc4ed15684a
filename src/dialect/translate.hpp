// The dialect layer as the backends see it: one call turns OpenCL C 1.2 source into what a
// backend's compiler takes, with the kernels it defines. Backends include this header only;
// the stages behind it (tokenize, parse, rewrites, per-target translation) stay internal.
//
//   const Translation tr = translate(source, Target::host);
//   compile(tr.text);
//   for (const KernelEntry& k : tr.kernels) look_up(k.symbol);  // found by users as k.name
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dialect/build_log.hpp"
#include "dialect/build_options.hpp"
#include "dialect/prelude.hpp"
#include "runtime/bounds_check.hpp"
#include "weft/program.hpp"

namespace weft::detail::dialect {

enum class Target : std::uint8_t {
  opencl,  // the source as is, for an OpenCL driver
  cuda,    // CUDA C++ for NVRTC
  host,    // C++ for the system compiler, run by the host backend
};

struct KernelEntry {
  std::string name;    // the OpenCL name, by which users look the kernel up
  std::string symbol;  // its name in the translated text (differs where C++ reserves the name)
  std::vector<KernelArgInfo> params;
  std::string refused;  // why the target cannot run it ("" when it can), e.g. "barrier() at line 9"
  bool groups = false;  // host: compiled as a group function (barriers, __local memory); its
                        // entry point runs whole work-groups
  // WEFT_BOUNDS_CHECK: the checked kernel's plan (its compiled form takes bounds->hidden()
  // arguments after params); null when unchecked (dialect/bounds_check.hpp).
  std::shared_ptr<const BoundsPlan> bounds;
};

struct Translation {
  std::string text;                  // what the target's compiler compiles
  std::vector<KernelEntry> kernels;  // in source order
  const KernelEntry* find(std::string_view name) const;
};

/// The longest kernel name weft accepts, on every backend alike. PoCL puts a kernel's name
/// twice into a cache path of at most 1024 bytes (and once into a file name of at most 255)
/// and aborts the process beyond that: from 253 characters here, from 200 when its cache
/// directory's path is 600 long. 128 leaves room for cache paths of over 600 characters.
inline constexpr std::size_t max_kernel_name = 128;

/// The file name compiler messages give the user's source in translated text: what
/// summarize_build_log's file_pattern matches for the host and CUDA.
inline constexpr const char* source_file_name = "kernel.cl";

/// Translates source for target. options are the program's build options: the C++ targets
/// define its -D macros in the text (after their prelude), so their compilers must not get
/// -D options; the OpenCL target leaves them to the driver. Throws BuildError for source the
/// dialect cannot read (a kernel that does not return void, a parameter without a name, a
/// name longer than max_kernel_name ...), InvalidArgument for options weft does not accept.
/// With bounds checks on (bounds_check_enabled(), WEFT_BOUNDS_CHECK) the kernels' buffer
/// accesses are checked (dialect/bounds_check.hpp) and their entries carry the plan.
Translation translate(std::string_view source, Target target, std::string_view options = {});

}  // namespace weft::detail::dialect
