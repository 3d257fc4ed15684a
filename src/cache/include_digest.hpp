// The files a kernel source #includes are part of its program-cache key: editing a header
// must rebuild the programs that include it, in this process and in the next.
//
// include_digest() finds each `#include "name"` / `#include <name>` line and looks the
// name up as a compiler would: a quoted name in the including file's directory (the
// current directory for the kernel source itself), then in each -I directory of the build
// options; an angled name in the -I directories. Every candidate that exists is hashed,
// name and contents, not just the first: which one a compiler picks differs between the
// host compiler, NVRTC and OpenCL drivers, and hashing them all is never stale. Found
// files are read the same way (regular files, size-capped) and their own includes
// followed, with a guard against cycles and depth. A name found nowhere (a system header,
// or a macro) is hashed as its name.
//
//   Hasher h; h.update(source); hash_includes(h, source, options);  // reads nothing
//                                                                   // without "#include"
#pragma once

#include <string_view>

#include "core/hash.hpp"

namespace weft::detail {

/// The digest of what source includes, given its build options (-I DIR or -IDIR).
Digest include_digest(std::string_view source, std::string_view options);

/// True when source has an include directive; cheap, reads no file.
bool has_include_directive(std::string_view source) noexcept;

/// Adds include_digest(source, options) to h when source includes anything.
void hash_includes(Hasher& h, std::string_view source, std::string_view options);

}  // namespace weft::detail
