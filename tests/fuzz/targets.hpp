// The fuzz targets: each takes one input and either handles it or raises a weft::Error;
// anything else (a crash, a sanitizer report, another exception, a broken invariant) is a
// finding. Built as libFuzzer programs (WEFT_FUZZ=ON, scripts/fuzz.sh) and, in the ordinary
// test suite, replayed over the checked-in corpus and regressions (test_fuzz_inputs.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft::fuzz {

/// Kernel source (an optional first line "//opts: OPTIONS" gives build options), tokenized,
/// parsed and translated for the host, CUDA and OpenCL.
void dialect(const std::uint8_t* data, std::size_t size);

/// An ElementwiseKernel/ReductionKernel argument list ("float *x, const float *y, int n").
void arg_spec(const std::uint8_t* data, std::size_t size);

/// Environment lines "NAME=VALUE" for Config::parse, each value a device selector too.
void config(const std::uint8_t* data, std::size_t size);

/// A program-cache entry file. Unless it starts with 'W' (as entries do), the rest after its
/// first byte is taken as header and payload of an entry with valid sizes and checksum, so
/// the fuzzer reaches past the checksum.
void cache_entry(const std::uint8_t* data, std::size_t size);

/// A compiler log summarized against a source (the log's own text).
void build_log(const std::uint8_t* data, std::size_t size);

}  // namespace weft::fuzz

// One libFuzzer entry point per program: fuzz_<target>.cpp defines it when built alone.
#ifndef WEFT_FUZZ_IN_TESTS
#define WEFT_FUZZ_ENTRY(target)                                                     \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    weft::fuzz::target(data, size);                                                 \
    return 0;                                                                       \
  }
#else
#define WEFT_FUZZ_ENTRY(target)
#endif

// A broken invariant: a finding, as a crash would be.
#define WEFT_FUZZ_CHECK(cond)                                                             \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      __builtin_printf("fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      __builtin_trap();                                                                   \
    }                                                                                     \
  } while (0)
