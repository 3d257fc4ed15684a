/* libweft_cub's C interface: CUB's device radix sort (cub::DeviceRadixSort, Onesweep) and
 * segmented sort (cub::DeviceSegmentedSort) behind one call, for weft's CUDA backend, which
 * opens the plugin at run time (src/backends/cuda/cuda_sort.cpp) and falls back to its own
 * kernels without it. Keys are sorted in weft's order (src/kernels/cl/sort_keys.cl: NaNs
 * last, -0.0 equal to 0.0, stable, descending the exact reverse with ties in input order).
 *
 *   const weft_cub_api* api = weft_cub_api_v1();
 *   size_t bytes = 0;
 *   api->sort(&job, NULL, &bytes);     // how much temporary memory the job needs
 *   api->sort(&job, temp, &bytes);     // enqueues the sort on job.stream
 */
#ifndef WEFT_CUB_H
#define WEFT_CUB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_CUB_ABI_VERSION 1

/* Key kinds: how a key's bits order (sort_keys.cl's WEFT_SORT_KIND). */
#define WEFT_CUB_UNSIGNED 0 /* unsigned integers and bool */
#define WEFT_CUB_SIGNED 1   /* two's complement integers */
#define WEFT_CUB_FLOAT 2    /* IEEE binary16/32/64 */

/* Results besides cudaError_t codes (positive; 0 is success). */
#define WEFT_CUB_UNSUPPORTED (-1) /* a job this plugin does not take: sort it elsewhere */
#define WEFT_CUB_INVALID (-2)     /* a malformed job (a null pointer, a bad size) */

typedef struct weft_cub_sort_job {
  uint32_t struct_size;   /* sizeof(weft_cub_sort_job) */
  int32_t key_kind;       /* WEFT_CUB_UNSIGNED, _SIGNED or _FLOAT */
  uint32_t key_bytes;     /* 1, 2, 4 or 8 */
  int32_t descending;     /* nonzero: descending (stable: ties in input order) */
  uint64_t count;         /* keys */
  uint64_t row_len;       /* keys per row (count a multiple of it); 0 or count: one row */
  const void* keys_in;    /* read only; may equal keys_out */
  void* keys_out;
  uint32_t payload_bytes; /* 0 (none), 1, 2, 4 or 8; ignored with payload_index */
  int32_t payload_index;  /* nonzero: payload_out gets each key's flat int64 index */
  const void* payload_in; /* may equal payload_out */
  void* payload_out;
  void* stream; /* a CUstream (cudaStream_t) of the current context */
} weft_cub_sort_job;

typedef struct weft_cub_api {
  uint32_t abi_version; /* WEFT_CUB_ABI_VERSION */
  /* "CUB 3.0.1 (CUDA 13.0), sm_90" */
  const char* (*version)(void);
  /* temp null: *temp_bytes = the memory the job needs. Else enqueues the job on its stream
   * using temp (*temp_bytes bytes, 256-byte aligned). Returns 0, a cudaError_t, or
   * WEFT_CUB_UNSUPPORTED / WEFT_CUB_INVALID. */
  int (*sort)(const weft_cub_sort_job* job, void* temp, size_t* temp_bytes);
  /* A name for a result of sort. */
  const char* (*result_name)(int result);
} weft_cub_api;

/* The plugin's table, or null for a caller of another ABI version. */
const weft_cub_api* weft_cub_api_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_CUB_H */
