/* libweft_vqsort's C interface: Highway's vectorized quicksort (hwy::Sorter, vqsort) for the
 * host backend's sorts of keys alone, which libweft opens at run time from its own folder
 * (src/backends/host/host_vqsort.cpp) and does without, sorting by its radix sort, where the
 * plugin is absent. Integers only: the caller sorts floats as integers of the same order
 * (Highway 1.0.3's vqsort of floats wrote +inf keys back as the largest finite value), and
 * vqsort is not stable (host_vqsort.hpp says how the caller makes up for both).
 *
 *   const weft_vqsort_api* api = weft_vqsort_api_v1();
 *   api->sort(keys, n, WEFT_VQSORT_UNSIGNED, 4, 0);   // ascending, in place
 */
#ifndef WEFT_VQSORT_H
#define WEFT_VQSORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_VQSORT_ABI_VERSION 1

/* Key kinds, as libweft_cub's (src/backends/cuda/cub/weft_cub.h). */
#define WEFT_VQSORT_UNSIGNED 0
#define WEFT_VQSORT_SIGNED 1

#define WEFT_VQSORT_UNSUPPORTED (-1) /* a key type the plugin does not sort */

typedef struct weft_vqsort_api {
  uint32_t abi_version; /* WEFT_VQSORT_ABI_VERSION */
  /* "Highway 1.0.3 vqsort" */
  const char* (*version)(void);
  /* Sorts count integer keys of key_bytes bytes (2, 4 or 8) in place, ascending or (descending
   * nonzero) descending, on the calling thread. Returns 0, or WEFT_VQSORT_UNSUPPORTED (the
   * keys untouched). Thread-safe. */
  int (*sort)(void* keys, uint64_t count, int32_t key_kind, uint32_t key_bytes, int32_t descending);
} weft_vqsort_api;

/* The plugin's table, or null for a caller of another ABI version. */
const weft_vqsort_api* weft_vqsort_api_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_VQSORT_H */
