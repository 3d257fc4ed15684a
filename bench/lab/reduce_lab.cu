// A lab, not part of the build: why does CUB's DeviceReduce stream a float32 sum faster than
// weft's generated reduction on Hopper? Every variant sums the same 2^26 random floats; each
// is checked against a float64 sum and timed with events (median of 30, interleaved rounds).
// Build and run on a GPU machine: bash bench/lab/run-lab.sh (nvcc -O3 -arch=sm_90).
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "lab.cuh"

constexpr int kThreads = 256;

__device__ __forceinline__ float block_sum(float acc, float* scratch) {
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if ((threadIdx.x & 31) == 0) scratch[threadIdx.x >> 5] = acc;
  __syncthreads();
  acc = 0.f;
  if (threadIdx.x < 32) {
    acc = threadIdx.x < kThreads / 32 ? scratch[threadIdx.x] : 0.f;
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  }
  return acc;
}

// The last block to finish sums the partials (weft's fused finish).
__device__ __forceinline__ void fused_finish(float acc, float* partial, float* result, int* ticket) {
  __shared__ float scratch[32];
  __shared__ int last;
  acc = block_sum(acc, scratch);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = acc;
    __threadfence();
    last = atomicAdd(ticket, 1) == (int)gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  float a = 0.f;
  for (int i = threadIdx.x; i < (int)gridDim.x; i += kThreads) a += ((volatile float*)partial)[i];
  __syncthreads();
  a = block_sum(a, scratch);
  if (threadIdx.x == 0) {
    *result = a;
    *ticket = 0;
  }
}

// A: weft's kernel as generated (64-bit global ids and strides, LOADS loads a grid apart).
// The end of A and B: the elements left after the last whole step into acc[0], the LOADS
// accumulators folded as a tree, then the fused finish.
template <int LOADS>
__device__ __forceinline__ void finish_loads(float (&acc)[LOADS], const float* x, long long i, long long n,
                                             unsigned long long G, float* partial, float* result, int* ticket) {
  for (; i < n; i += (long long)G) acc[0] += x[i];
#pragma unroll
  for (int w = 1; w < LOADS; w <<= 1)
#pragma unroll
    for (int k = 0; k + w < LOADS; k += 2 * w) acc[k] += acc[k + w];
  fused_finish(acc[0], partial, result, ticket);
}

template <int LOADS>
__global__ void __launch_bounds__(kThreads) grid64(const float* x, long long n, float* partial, float* result,
                                                   int* ticket) {
  const unsigned long long G = (unsigned long long)gridDim.x * blockDim.x;
  long long i = (long long)((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x);
  float acc[LOADS];
#pragma unroll
  for (int k = 0; k < LOADS; ++k) acc[k] = 0.f;
  for (; i + (long long)((LOADS - 1) * G) < n; i += LOADS * G) {
#pragma unroll
    for (int k = 0; k < LOADS; ++k) acc[k] += x[i + k * G];
  }
  finish_loads(acc, x, i, n, G, partial, result, ticket);
}

// B: the same with 32-bit offsets from a per-iteration base pointer.
template <int LOADS>
__global__ void __launch_bounds__(kThreads) grid32(const float* x, long long n, float* partial, float* result,
                                                   int* ticket) {
  const unsigned G = gridDim.x * blockDim.x;
  long long i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[LOADS];
#pragma unroll
  for (int k = 0; k < LOADS; ++k) acc[k] = 0.f;
  for (; i + (long long)(LOADS - 1) * G < n; i += (long long)LOADS * G) {
    const float* p = x + i;
#pragma unroll
    for (int k = 0; k < LOADS; ++k) acc[k] += p[k * G];
  }
  finish_loads(acc, x, i, n, G, partial, result, ticket);
}

// C: grid-stride over 16-byte vectors, VEC vectors in flight per thread.
template <int VEC, bool LDG = true>
__global__ void __launch_bounds__(kThreads) gridvec(const float* x, long long n, float* partial, float* result,
                                                    int* ticket) {
  const long long nv = n / 4;
  const float4* v = reinterpret_cast<const float4*>(x);
  const unsigned G = gridDim.x * blockDim.x;
  long long i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 acc[VEC];
#pragma unroll
  for (int k = 0; k < VEC; ++k) acc[k] = make_float4(0.f, 0.f, 0.f, 0.f);
  for (; i + (long long)(VEC - 1) * G < nv; i += (long long)VEC * G) {
    float4 t[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k) t[k] = LDG ? __ldg(v + i + k * G) : v[i + k * G];
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      acc[k].x += t[k].x;
      acc[k].y += t[k].y;
      acc[k].z += t[k].z;
      acc[k].w += t[k].w;
    }
  }
  for (; i < nv; i += G) {
    const float4 t = __ldg(v + i);
    acc[0].x += t.x;
    acc[0].y += t.y;
    acc[0].z += t.z;
    acc[0].w += t.w;
  }
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < VEC; ++k) s += (acc[k].x + acc[k].y) + (acc[k].z + acc[k].w);
  for (long long j = nv * 4 + blockIdx.x * blockDim.x + threadIdx.x; j < n; j += G) s += x[j];
  fused_finish(s, partial, result, ticket);
}

// D: CUB's shape: tiles of 256 x 16 items (4 vectors per thread, a tile contiguous), each
// block an even share of whole tiles; FUSED picks weft's last-block finish or a second launch.
template <bool FUSED>
__global__ void __launch_bounds__(kThreads) tiles(const float* x, long long n, long long tiles_per_block,
                                                  float* partial, float* result, int* ticket) {
  constexpr int kTile = kThreads * 16;
  const long long ntiles = n / kTile;
  long long t0 = blockIdx.x * tiles_per_block, t1 = min(ntiles, t0 + tiles_per_block);
  float4 acc[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) acc[k] = make_float4(0.f, 0.f, 0.f, 0.f);
  for (long long t = t0; t < t1; ++t) {
    const float4* v = reinterpret_cast<const float4*>(x + t * kTile) + threadIdx.x;
    float4 r[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) r[k] = __ldg(v + k * kThreads);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      acc[k].x += r[k].x;
      acc[k].y += r[k].y;
      acc[k].z += r[k].z;
      acc[k].w += r[k].w;
    }
  }
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 4; ++k) s += (acc[k].x + acc[k].y) + (acc[k].z + acc[k].w);
  if (blockIdx.x == gridDim.x - 1)
    for (long long j = ntiles * kTile + threadIdx.x; j < n; j += kThreads) s += x[j];
  if (FUSED) {
    fused_finish(s, partial, result, ticket);
  } else {
    __shared__ float scratch[32];
    s = block_sum(s, scratch);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
  }
}

__global__ void finish(const float* partial, int count, float* result) {
  __shared__ float scratch[32];
  float a = 0.f;
  for (int i = threadIdx.x; i < count; i += kThreads) a += partial[i];
  a = block_sum(a, scratch);
  if (threadIdx.x == 0) *result = a;
}

int main(int argc, char** argv) {
  const long long n = argc > 1 ? std::atoll(argv[1]) : (1ll << 26);
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::vector<float> h(n);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> dist(0.f, 1.f);
  double ref = 0;
  for (auto& v : h) ref += (v = dist(rng));
  float *x, *y, *partial, *result;
  int* ticket;
  void* temp = nullptr;
  size_t temp_bytes = 0;
  CHECK(cudaMalloc(&x, n * 4));
  CHECK(cudaMalloc(&y, n * 4));
  CHECK(cudaMalloc(&partial, 1 << 20));
  CHECK(cudaMalloc(&result, 4));
  CHECK(cudaMalloc(&ticket, 4));
  CHECK(cudaMemset(ticket, 0, 4));
  CHECK(cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, x, result, n));
  CHECK(cudaMalloc(&temp, temp_bytes));

  std::vector<Variant> vs;
  vs.push_back({"copy (cudaMemcpy D2D)", [&] { CHECK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, true, {}});
  vs.push_back({"cub DeviceReduce::Sum", [&] { CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, x, result, n)); }, false, {}});
  vs.push_back({"C gridvec vec=2 plain loads groups/SM=8",
                [=] { gridvec<2, false><<<sms * 8, kThreads>>>(x, n, partial, result, ticket); }, false, {}});
  for (int per_sm : {8, 16}) {
    const int g = sms * per_sm;
    vs.push_back({"A grid64 loads=8 groups/SM=" + std::to_string(per_sm),
                  [=] { grid64<8><<<g, kThreads>>>(x, n, partial, result, ticket); }, false, {}});
    vs.push_back({"B grid32 loads=8 groups/SM=" + std::to_string(per_sm),
                  [=] { grid32<8><<<g, kThreads>>>(x, n, partial, result, ticket); }, false, {}});
    vs.push_back({"B grid32 loads=16 groups/SM=" + std::to_string(per_sm),
                  [=] { grid32<16><<<g, kThreads>>>(x, n, partial, result, ticket); }, false, {}});
    vs.push_back({"C gridvec vec=2 groups/SM=" + std::to_string(per_sm),
                  [=] { gridvec<2><<<g, kThreads>>>(x, n, partial, result, ticket); }, false, {}});
    vs.push_back({"C gridvec vec=4 groups/SM=" + std::to_string(per_sm),
                  [=] { gridvec<4><<<g, kThreads>>>(x, n, partial, result, ticket); }, false, {}});
  }
  for (int per_sm : {8, 16, 40}) {
    const int g0 = sms * per_sm;
    const long long ntiles = n / (kThreads * 16);
    const long long per = (ntiles + g0 - 1) / g0;
    const int g = (int)((ntiles + per - 1) / per);
    vs.push_back({"D tiles fused groups/SM=" + std::to_string(per_sm),
                  [=] { tiles<true><<<g, kThreads>>>(x, n, per, partial, result, ticket); }, false, {}});
    vs.push_back({"D tiles two launches groups/SM=" + std::to_string(per_sm), [=] {
                    tiles<false><<<g, kThreads>>>(x, n, per, partial, result, ticket);
                    finish<<<1, kThreads>>>(partial, g, result);
                  }, false, {}});
  }

  // Check each once, then time: rounds interleave the variants; each sample is 10 calls.
  for (auto& v : vs) {
    if (v.is_copy) continue;
    CHECK(cudaMemset(result, 0xff, 4));
    v.run();
    CHECK(cudaGetLastError());
    float got = 0;
    CHECK(cudaMemcpy(&got, result, 4, cudaMemcpyDeviceToHost));
    const double rel = std::abs(got - ref) / ref;
    if (!(rel < 1e-5)) {
      std::printf("WRONG %s: %.8g against %.8g (rel %.3g)\n", v.name.c_str(), got, ref, rel);
      return 1;
    }
  }
  time_and_print(vs, 30, "variant", [&](const Variant& v) { return (v.is_copy ? 2.0 : 1.0) * n * 4; });

  return 0;
}
