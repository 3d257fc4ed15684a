// A lab, not part of the build: what limits weft's single-pass scan (decoupled look-back) on
// Hopper? weft's kernel (src/kernels/cl/scan_lookback.cl on CUDA's asynchronous-copy path:
// 256 work-items x 32 items, a look-back window of WINDOW tiles per round, looked back by the
// first warp alone when WINDOW <= 32) rewritten in CUDA C, with one change per variant:
//   LOAD 0: 4-byte cp.async per item; 1: one bulk copy (TMA) per 128-byte row on an mbarrier;
//           2: 16-byte cp.async.cg (rows padded to 36 words);
//   STORE 0: coalesced 4-byte stores; 1: each run leaves by a bulk copy (TMA); 2: streaming
//           stores (st.global.cs); 3: coalesced 16-byte stores;
//   prefetch > 0: each work-group asks L2 for the tile that many tickets ahead; < 0: the same
//           distance with tiles in block order instead of an atomic ticket;
//   EARLY: each run's own scan before the look-back, the carry added at the stores.
// CUB's DeviceScan::InclusiveSum runs beside them. Each variant is checked against a float64
// prefix sum, then timed (lab.cuh). Build and run: bash bench/lab/run-lab.sh; with a second
// argument, only the variants whose names contain it run, a few calls each (for ncu).
#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "lab.cuh"

#ifndef KGROUP
#define KGROUP 256
#endif
constexpr int kGroup = KGROUP, kWarps = kGroup / 32;

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void copy_async4(float* dst, const float* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem(dst)), "l"(src) : "memory");
}
__device__ __forceinline__ void mbar_init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive_expect(uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, unsigned parity) {
  asm volatile(
      "{\n .reg .pred p;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra WAIT_%=;\n}\n" ::"r"(
          smem(bar)),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                   smem(dst)),
               "l"(src), "r"(bytes), "r"(smem(bar))
               : "memory");
}
__device__ __forceinline__ void bulk_store(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(dst), "r"(smem(src)), "r"(bytes)
               : "memory");
}

// Row stride in local memory: 33 words (one of padding per 32) for scalar runs, 36 (16 bytes
// of padding) where rows must start 16-byte aligned for bulk copies and 16-byte reads.
template <int S>
__device__ __forceinline__ int pad(int j) {
  return (j >> 5) * S + (j & 31);
}

// One warp's part of a look-back round, as weft's weft_read_tile and weft_fold_warp_window:
// item reads tile p (waiting for this call's word), and lane 0 gets the fold of the lanes up to
// the nearest inclusive prefix; *stopped: a prefix was met in this warp.
template <int WINDOW>
__device__ __forceinline__ float window_fold(volatile unsigned long long* status, long long p, int item, int lane,
                                             unsigned epoch, bool* stopped) {
  unsigned state = 2;
  float value = 0.f;
  if (item >= WINDOW) {
    state = 1;
  } else if (p >= 0) {
    unsigned long long w;
    while (((unsigned)(w = status[p]) >> 2) != epoch) {
    }
    state = (unsigned)w & 3u;
    value = __uint_as_float((unsigned)(w >> 32));
  }
  const unsigned prefixes = __ballot_sync(0xffffffffu, state == 2);
  const int stop = prefixes ? __ffs(prefixes) - 1 : 32;
  if (lane > stop) value = 0.f;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const float f = __shfl_down_sync(0xffffffffu, value, o);
    if (lane + o < 32) value += f;
  }
  *stopped = prefixes != 0;
  return value;
}

// Helpers for 16-byte rows (runs of 32 padded to S = 36 words), shared by both kernels.
// The fold of a run.
__device__ __forceinline__ float fold_row(const float* run) {
  float mine = 0.f;
#pragma unroll
  for (int m = 0; m < 8; ++m) {
    const float4 v = reinterpret_cast<const float4*>(run)[m];
    mine += v.x;
    mine += v.y;
    mine += v.z;
    mine += v.w;
  }
  return mine;
}
// The run scanned in place, starting from acc.
__device__ __forceinline__ void scan_row(float* run, float acc) {
#pragma unroll
  for (int m = 0; m < 8; ++m) {
    float4 v = reinterpret_cast<float4*>(run)[m];
    v.x = acc += v.x;
    v.y = acc += v.y;
    v.z = acc += v.z;
    v.w = acc += v.w;
    reinterpret_cast<float4*>(run)[m] = v;
  }
}
// A whole tile's rows to y, 16 bytes (4 neighbours) per store, coalesced.
__device__ __forceinline__ void store_rows16(float* y, const float* items, int lid) {
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const int j = 4 * (lid + k * kGroup);
    *reinterpret_cast<float4*>(y + j) = *reinterpret_cast<const float4*>(&items[pad<36>(j)]);
  }
}

// A whole tile's rows from x into local memory, 16 bytes per cp.async.cg, waited for (this
// thread's copies; a barrier then shows them to the others).
__device__ __forceinline__ void copy_rows16(float* items, const float* x, int lid) {
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const int j = 4 * (lid + k * kGroup);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem(&items[pad<36>(j)])), "l"(x + j) : "memory");
  }
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
}
// The items' totals scanned across the work-group's kWarps data warps (shuffles, then one
// barrier `sync` over part[]): .x what precedes this item's run in the tile, .y the tile's total.
template <class Sync>
__device__ __forceinline__ float2 scan_totals(float mine, int lane, int warp, float* part, Sync sync) {
  float incl = mine;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const float e = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += e;
  }
  if (lane == 31) part[warp] = incl;
  sync();
  float warp_before = 0.f, total = 0.f;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    if (w == warp) warp_before = total;
    total += part[w];
  }
  const float excl = __shfl_up_sync(0xffffffffu, incl, 1);
  return make_float2(lane > 0 ? warp_before + excl : warp_before, total);
}

// The look-back by one warp, as weft's weft_look_back_warp: the fold of tile's predecessors
// back to the nearest inclusive prefix, idling SLEEP ns between rounds that meet none.
template <int WINDOW, int SLEEP>
__device__ __forceinline__ float look_back_warp(volatile unsigned long long* status, long long tile, int lane,
                                                unsigned epoch) {
  float carry = 0.f;
  long long window_end = tile;
  bool done = false;
  while (!done) {
    const float value = window_fold<WINDOW>(status, window_end - 1 - lane, lane, lane, epoch, &done);
    carry += __shfl_sync(0xffffffffu, value, 0);
    window_end -= WINDOW;
    if (SLEEP && !done) __nanosleep(SLEEP);
  }
  return carry;
}

template <int LOAD, int STORE, int WINDOW, int kItems = 32, bool EARLY = false, int BOUND = 0>
__global__ void __launch_bounds__(kGroup) scan_lookback(const float* __restrict__ x, float* __restrict__ y, long long n,
                                                        volatile unsigned long long* status, int* counter,
                                                        unsigned tile_base, unsigned epoch, int prefetch) {
  constexpr int S = (LOAD == 1 || LOAD == 2 || STORE == 1 || STORE == 3) ? 36 : 33;
  constexpr int kTile = kGroup * kItems;
  static_assert(S == 33 || kItems == 32, "16-byte rows hold one run of 32");
  extern __shared__ __align__(128) float items[];
  __shared__ int tile_shared;
  __shared__ float part[kWarps], window_part[kWarps];
  __shared__ int part_stop[kWarps];
  __shared__ __align__(8) uint64_t bar;
  const int lid = threadIdx.x, lane = lid & 31, warp = lid >> 5;
  if (lid == 0) {
    tile_shared = prefetch < 0 ? (int)blockIdx.x : (int)((unsigned)atomicAdd(counter, 1) - tile_base);
    if (LOAD == 1) {
      mbar_init(&bar, kWarps);
      asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
  }
  __syncthreads();
  const long long tile = tile_shared;
  const long long base = tile * kTile;
  const bool full = base + kTile <= n;
  // Optionally: ask L2 to fetch the tile `prefetch` tickets ahead (one bulk prefetch, sm_90).
  if (prefetch < 0) prefetch = -prefetch;  // negative: tiles in block order (no ticket)
  if (prefetch > 0 && lid == 0 && base + (long long)(prefetch + 1) * kTile <= n) {
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(x + base + (long long)prefetch * kTile),
                 "r"(kTile * 4)
                 : "memory");
  }
  if (full && LOAD == 1) {
    if (lane == 0) mbar_arrive_expect(&bar, 32 * 128);
    __syncwarp();
    bulk_load(&items[lid * S], x + base + lid * 32, 128, &bar);
    mbar_wait(&bar, 0);
  } else if (full && LOAD == 2) {
    copy_rows16(items, x + base, lid);
    __syncthreads();
  } else if (full) {
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int j = lid + k * kGroup;
      copy_async4(&items[pad<S>(j)], x + base + j);
    }
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
  } else {
    for (int k = 0; k < kItems; ++k) {
      const int j = lid + k * kGroup;
      items[pad<S>(j)] = base + j < n ? x[base + j] : 0.f;
    }
    __syncthreads();
  }
  if (BOUND == 2 && full && STORE == 3) {  // a bound, not a scan: the tile's copy alone
    store_rows16(y + base, items, lid);
    return;
  }
  // The thread's run: elements lid*kItems .. +kItems-1 (row lid when kItems is 32).
  float* run = &items[lid * S];
  auto at = [&](int k) -> float& { return items[pad<S>(lid * kItems + k)]; };
  float mine = 0.f;
  if (S == 36) {
    mine = fold_row(run);
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) mine += at(k);
  }
  const float2 scanned = scan_totals(mine, lane, warp, part, [] { __syncthreads(); });
  const float before_item = scanned.x, total = scanned.y;
  auto word = [&](unsigned state, float v) {
    return ((unsigned long long)__float_as_uint(v) << 32) | ((epoch << 2) | state);
  };
  if (lid == 0) status[tile] = word(tile == 0 ? 2u : 1u, total);
  float carry = 0.f;
  long long window_end = tile;
  int done = tile == 0 || BOUND == 1;  // BOUND 1: a bound, not a scan: no look-back
  // EARLY: each run's own scan (without the carry) before the look-back; the carry joins at
  // the stores. Warps other than the first do theirs while the first looks back.
  auto local_scan = [&]() { scan_row(run, before_item); };
  if (EARLY && warp != 0) local_scan();
  if (WINDOW <= 32) {  // weft now: the first warp looks back alone and publishes at once
    if (warp == 0) {
      if (!done) carry = look_back_warp<WINDOW, 0>(status, tile, lane, epoch);
      if (lane == 0) {
        window_part[0] = carry;
        if (tile > 0) status[tile] = word(2u, carry + total);
      }
      if (EARLY) local_scan();
    }
    __syncthreads();
    carry = window_part[0];
    done = 1;
  }
  while (!done) {
    bool stopped;
    const float value = window_fold<WINDOW>(status, window_end - 1 - lid, lid, lane, epoch, &stopped);
    if (lane == 0) {
      window_part[warp] = value;
      part_stop[warp] = stopped;
    }
    __syncthreads();
    int nearest = kWarps - 1;
    for (int w = kWarps - 1; w >= 0; --w)
      if (part_stop[w]) nearest = w;
    float win = 0.f;
    for (int w = nearest; w >= 0; --w) win += window_part[w];
    done = part_stop[nearest];
    carry += win;
    window_end -= WINDOW;
    __syncthreads();
  }
  if (WINDOW > 32 && lid == 0 && tile > 0) status[tile] = word(2u, carry + total);
  float acc = tile > 0 ? carry + before_item : before_item;
  if (EARLY && full && STORE == 3) {
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems / 4; ++k) {
      const int j = 4 * (lid + k * kGroup);
      float4 v = *reinterpret_cast<const float4*>(&items[pad<S>(j)]);
      if (tile > 0) {
        v.x += carry;
        v.y += carry;
        v.z += carry;
        v.w += carry;
      }
      *reinterpret_cast<float4*>(y + base + j) = v;
    }
    return;
  }
  if (EARLY) __trap();  // the lab runs EARLY on whole tiles of 16-byte rows only
  if (S == 36) {
    scan_row(run, acc);
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) at(k) = acc += at(k);
  }
  if (STORE == 1 && full) {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    bulk_store(y + base + lid * 32, run, 128);
    asm volatile("cp.async.bulk.commit_group;\ncp.async.bulk.wait_group.read 0;\n" ::: "memory");
    return;
  }
  __syncthreads();
  if (full && STORE == 3) {  // 16-byte stores of 4 neighbours (rows 16-byte aligned: S = 36)
    store_rows16(y + base, items, lid);
    return;
  }
  if (full) {  // weft now: whole tiles without bounds checks
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int j = lid + k * kGroup;
      y[base + j] = items[pad<S>(j)];
    }
    return;
  }
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int j = lid + k * kGroup;
    if (base + j < n) {
      if (STORE == 2) __stcs(&y[base + j], items[pad<S>(j)]);
      else y[base + j] = items[pad<S>(j)];
    }
  }
}

// Warp specialization: a ninth warp looks back from the moment the work-group starts, while
// the eight data warps copy the tile in, fold it and publish its aggregate; the prefix is thus
// looked up during the tile's own copy instead of after it. 16-byte rows, tiles in block order.
// The data warps meet on named barrier 1; all nine meet once (2), when the carry and total are known.
template <int WINDOW, int SLEEP = 0>
__global__ void __launch_bounds__(kGroup + 32, 6) scan_specialized(const float* __restrict__ x, float* __restrict__ y,
                                                                    long long n, volatile unsigned long long* status,
                                                                    int*, unsigned, unsigned epoch, int prefetch) {
  constexpr int S = 36, kItems = 32, kTile = kGroup * kItems;
  extern __shared__ __align__(128) float items[];
  __shared__ float part[kWarps];
  __shared__ float carry_shared;
  const int lid = threadIdx.x, lane = lid & 31, warp = lid >> 5;
  const long long tile = blockIdx.x;
  const long long base = tile * kTile;
  const bool full = base + kTile <= n;
  auto word = [&](unsigned state, float v) {
    return ((unsigned long long)__float_as_uint(v) << 32) | ((epoch << 2) | state);
  };
  // (A) is reached from two places: the unaligned barrier.sync (bar.sync, like __syncthreads,
  // requires every warp at the same instruction).
  auto meet_barrier = [] { asm volatile("barrier.sync 2, %0;\n" ::"n"(kGroup + 32) : "memory"); };
  if (warp == kWarps) {  // the look-back warp
    if (prefetch < 0) prefetch = -prefetch;
    if (lane == 0 && prefetch > 0 && base + (long long)(prefetch + 1) * kTile <= n) {
      asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(x + base + (long long)prefetch * kTile),
                   "r"(kTile * 4)
                   : "memory");
    }
    const float carry = tile == 0 ? 0.f : look_back_warp<WINDOW, SLEEP>(status, tile, lane, epoch);
    if (lane == 0) carry_shared = carry;
    meet_barrier();  // (A): with the data warps
    return;
  }
  auto data_barrier = [] { asm volatile("bar.sync 1, %0;\n" ::"n"(kGroup) : "memory"); };
  if (full) {
    copy_rows16(items, x + base, lid);
  } else {
    for (int k = 0; k < kItems; ++k) {
      const int j = lid + k * kGroup;
      items[pad<S>(j)] = base + j < n ? x[base + j] : 0.f;
    }
  }
  data_barrier();
  float* run = &items[lid * S];
  const float2 scanned = scan_totals(fold_row(run), lane, warp, part, data_barrier);
  const float before_item = scanned.x, total = scanned.y;
  if (lid == 0) status[tile] = word(tile == 0 ? 2u : 1u, total);
  meet_barrier();  // (A): the carry is known
  const float carry = carry_shared;
  if (lid == 0 && tile > 0) status[tile] = word(2u, carry + total);
  scan_row(run, tile > 0 ? carry + before_item : before_item);
  data_barrier();
  if (full) {
    store_rows16(y + base, items, lid);
    return;
  }
  for (int k = 0; k < kItems; ++k) {
    const int j = lid + k * kGroup;
    if (base + j < n) y[base + j] = items[pad<S>(j)];
  }
}

int main(int argc, char** argv) {
  const long long n = argc > 1 ? std::atoll(argv[1]) : (1ll << 26);
  const long long max_tiles = (n + kGroup * 8 - 1) / (kGroup * 8);
  std::vector<float> h(n), got(n);
  std::vector<double> ref(n);
  std::mt19937 rng(777);
  std::uniform_real_distribution<float> dist(0.f, 1.f);
  double s = 0;
  for (long long i = 0; i < n; ++i) ref[i] = (s += (h[i] = dist(rng)));
  float *x, *y;
  unsigned long long* status;
  int* counter;
  CHECK(cudaMalloc(&x, n * 4));
  CHECK(cudaMalloc(&y, n * 4));
  CHECK(cudaMalloc(&status, max_tiles * 8));
  CHECK(cudaMalloc(&counter, 4));
  CHECK(cudaMemset(status, 0, max_tiles * 8));
  CHECK(cudaMemset(counter, 0, 4));
  CHECK(cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice));
  void* temp = nullptr;
  size_t temp_bytes = 0;
  CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, x, y, n));
  CHECK(cudaMalloc(&temp, temp_bytes));
  unsigned calls = 0;      // the epoch
  unsigned long long taken = 0;  // tiles taken from the counter so far

  std::vector<Variant> vs;
  auto add = [&](std::string name, auto kernel, int S, int prefetch = 0, int items = 32, bool bound = false,
                 int threads = kGroup) {
    const int kTile = kGroup * items;
    const long long ntiles = (n + kTile - 1) / kTile;
    const int bytes = (kTile / 32) * S * 4;
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    cudaFuncAttributes attr{};
    CHECK(cudaFuncGetAttributes(&attr, kernel));
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, bytes));
    name += " (" + std::to_string(attr.numRegs) + " regs, " + std::to_string(per_sm) + "/SM)";
    vs.push_back({name, [=, &calls, &taken] {
                    ++calls;
                    kernel<<<(unsigned)ntiles, threads, bytes>>>(x, y, n, status, counter, (unsigned)taken,
                                                                calls & 0x3fffffffu, prefetch);
                    if (prefetch >= 0) taken += ntiles;
                  }, false, {}, bound});
  };
  vs.push_back({"copy (cudaMemcpy D2D)", [&] { CHECK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, true, {}});
  vs.push_back({"cub DeviceScan::InclusiveSum", [&] { CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, x, y, n)); }, false, {}});
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int resident = sms * 6;
  const int pf = sms / 2;
  const std::string g = " [" + std::to_string(kGroup) + " work-items]";
  add("weft now (group order, 16B rows, window 16)" + g, scan_lookback<2, 3, 16>, 36, -pf);
  add("bound: no look-back (wrong sums)" + g, scan_lookback<2, 3, 16, 32, false, 1>, 36, -pf, 32, true);
  add("bound: the tiles' copy alone (no scan)" + g, scan_lookback<2, 3, 16, 32, false, 2>, 36, -pf, 32, true);
  add("look-back warp (9th), window 16" + g, scan_specialized<16>, 36, -pf, 32, false, kGroup + 32);
  add("look-back warp (9th), window 8, sleep 64 ns" + g, scan_specialized<8, 64>, 36, -pf, 32, false, kGroup + 32);
  add("look-back warp (9th), window 16, sleep 32 ns" + g, scan_specialized<16, 32>, 36, -pf, 32, false, kGroup + 32);
  add("look-back warp (9th), window 16, sleep 64 ns" + g, scan_specialized<16, 64>, 36, -pf, 32, false, kGroup + 32);
  add("look-back warp (9th), window 16, sleep 128 ns" + g, scan_specialized<16, 128>, 36, -pf, 32, false, kGroup + 32);
  add("look-back warp (9th), window 16, sleep 256 ns" + g, scan_specialized<16, 256>, 36, -pf, 32, false, kGroup + 32);
  add("look-back warp (9th), window 16, sleep 64, prefetch 1 tile/SM" + g, scan_specialized<16, 64>, 36, -sms, 32, false, kGroup + 32);
  add("look-back warp (9th), window 16, sleep 64, prefetch 1/4 tile/SM" + g, scan_specialized<16, 64>, 36, -sms / 4, 32, false, kGroup + 32);
  add("weft now again" + g, scan_lookback<2, 3, 16>, 36, -pf);
  (void)resident;

  if (argc > 2) {  // profile mode: only the variants whose names contain argv[2], a few calls each
    std::vector<Variant> keep;
    for (auto& v : vs)
      if (v.name.find(argv[2]) != std::string::npos) keep.push_back(v);
    for (auto& v : keep)
      for (int r = 0; r < 3; ++r) v.run();
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  bool ok = true;
  for (auto& v : vs) {
    if (v.is_copy || v.bound) continue;
    CHECK(cudaMemset(y, 0xff, n * 4));
    v.run();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got.data(), y, n * 4, cudaMemcpyDeviceToHost));
    long long bad = 0, first = -1;
    for (long long i = 0; i < n; ++i) {
      if (!(std::fabs(got[i] - ref[i]) <= 1e-4 * ref[i] + 1e-3)) {
        if (first < 0) first = i;
        ++bad;
      }
    }
    if (bad) {
      std::printf("WRONG %s: %lld elements, first at %lld: %.8g against %.8g\n", v.name.c_str(), bad, first,
                  got[first], ref[first]);
      ok = false;
    }
  }
  time_and_print(vs, 20, "scan variant", [&](const Variant&) { return 2.0 * n * 4; });

  return ok ? 0 : 1;
}
