// Process configuration read from the environment, once.
//
//   WEFT_DEVICE      default device selector (see selector.hpp); default "auto" (a static
//                    ranking); set to exactly "auto", arrays Python makes without a device are
//                    also automatic (placed per operation, docs/PLACEMENT.md)
//   WEFT_BACKENDS    comma list of what may load at all: host, opencl, opencl:cpu,
//                    opencl:gpu, opencl:accelerator, cuda (default: everything)
//   WEFT_CACHE_DIR   program cache directory; default $XDG_CACHE_HOME/weft or ~/.cache/weft
//                    ($HOME, else the password database's home); with neither, no disk cache
//   WEFT_CACHE_LOCK_TIMEOUT  seconds a build waits for another process's lock on the same
//                    cache entry before it builds without it (0 to 86400, default 60)
//   WEFT_NUM_THREADS host backend threads; default: every core
//   WEFT_CXX         the C++ compiler the host backend runs (default: c++)
//   WEFT_LOG         off | error | warning (default) | info | debug
//   WEFT_MEMORY_LIMIT  the most memory arrays may hold on each device (their memory pool,
//                    cached blocks included): bytes, or a number with K, M, G or T
//                    (powers of 1024, an optional "B" or "iB": 512M, 1.5GiB); default none
//   WEFT_OPENCL_PTX  1 | on (default): generated kernels use inline PTX on NVIDIA's OpenCL
//                    (compute capability 7.0 and later); 0 | off keeps their OpenCL C plain
//   WEFT_HOST_PCH    1 | on (default): the host backend keeps its prelude precompiled (GCC's
//                    .gch, in the program cache) so a new kernel compiles sooner; 0 | off
//                    parses the prelude text in every compile
//   WEFT_PLACEMENT_LEARN  1 | on: device auto also refines its estimates from timed runs,
//                    stored with the calibration (docs/PLACEMENT.md); 0 | off (default): the model alone
//   WEFT_BOUNDS_CHECK  0 | off (default); 1 | on: every kernel's buffer accesses are checked
//                    (docs/BOUNDS_CHECK.md): dialect kernels' p[i] on __global pointer parameters
//                    and Python kernels' indices; a bad access is skipped and raises IndexOutOfRange
//   WEFT_STAGING     CHUNK_MIB,THREADS: how copies between pageable host memory and a CUDA
//                    device or an OpenCL GPU are staged through pinned buffers (the largest
//                    chunk in MiB, 1 to 256; the memcpy threads, 1 to 64); unset: the
//                    defaults argued in src/backends/cuda/cuda_staging.hpp. For tuning.
//   WEFT_STAGING_TRACE  0 | off (default); 1 | on: every staged copy's timeline (per chunk: memcpy
//                    queued, started, done; DMA queued, started, done) is kept and printed to
//                    stderr when the process exits (src/runtime/staging_trace.hpp). For tuning.
//   PATH             where programs (the host backend's compiler) are looked up
//
//   TMPDIR           where temporary build directories go (an absolute path; default /tmp)
//   PYTHONPATH       read as it is, only to hand it on (with weft's package first) to the Python
//                    that `weft polygon --dask` starts; Python's own setting, not validated
//
//   const weft::Config& cfg = weft::config();   // throws ConfigError on a malformed value
#pragma once

#include "weft/export.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "weft/selector.hpp"

namespace weft {

enum class LogLevel : int { off = 0, error = 1, warning = 2, info = 3, debug = 4 };

struct WEFT_API Config {
  DeviceSelector device;                 // WEFT_DEVICE
  bool device_automatic = false;         // WEFT_DEVICE is set to "auto": device auto (placement) by default
  std::vector<DeviceSelector> backends;  // WEFT_BACKENDS; empty: all may load
  std::string cache_dir;                 // resolved directory; empty: no disk cache
  std::chrono::milliseconds cache_lock_timeout{60000};  // WEFT_CACHE_LOCK_TIMEOUT
  std::string temp_dir;                  // TMPDIR (absolute), default "/tmp"
  std::string python_path;               // PYTHONPATH as it is (empty when unset)
  unsigned num_threads = 1;              // WEFT_NUM_THREADS, resolved
  std::string cxx;                       // WEFT_CXX, default "c++"
  LogLevel log_level = LogLevel::warning;
  std::uint64_t memory_limit = 0;        // WEFT_MEMORY_LIMIT in bytes; 0: no limit
  bool opencl_ptx = true;                // WEFT_OPENCL_PTX
  bool host_pch = true;                  // WEFT_HOST_PCH
  bool host_prebuilt = true;             // WEFT_HOST_PREBUILT
  bool placement_learn = false;          // WEFT_PLACEMENT_LEARN
  bool placement_chains = true;          // WEFT_PLACEMENT_CHAINS
  bool bounds_check = false;             // WEFT_BOUNDS_CHECK
  std::size_t staging_chunk_bytes = 0;   // WEFT_STAGING's chunk; 0: the default table's
  unsigned staging_threads = 0;          // WEFT_STAGING's threads; 0: the default table's
  bool staging_trace = false;            // WEFT_STAGING_TRACE
  std::string path;                      // PATH; default /usr/local/bin:/usr/bin:/bin

  /// True when WEFT_BACKENDS lets backend ("host", "opencl", "cuda") load at all.
  bool backend_allowed(std::string_view backend) const;
  /// True when WEFT_BACKENDS lets a device of that backend and type be listed.
  bool device_allowed(std::string_view backend, DeviceType type) const;

  /// Parses a configuration from a getenv-like lookup (nullptr for unset). user_home gives
  /// the home directory when HOME is unset (default: the password database's entry for
  /// the effective user; "" for none). Throws ConfigError naming the variable, its value
  /// and what is accepted.
  static Config parse(const std::function<const char*(const char*)>& getenv,
                      const std::function<std::string()>& user_home = {});
};

/// The process's configuration, parsed from the environment on first use.
WEFT_API const Config& config();

}  // namespace weft
