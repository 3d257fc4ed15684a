// CUDA C as written (Program::build_cuda, what CuPy's RawModule takes): the kernels and
// parameters read from it, its NVRTC compile (no GPU needed), its refusal on devices that do
// not compile CUDA C, and, on CUDA devices, seed 004's CuPy kernel run with CuPy's grid.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_source.hpp"
#include "support.hpp"
#include "weft/buffer.hpp"
#include "weft/error.hpp"
#include "weft/program.hpp"
#include "weft/queue.hpp"

namespace weft::detail {
namespace {

// Seed 004's cupy_example_raw.py kernel, as the course writes it.
constexpr const char* seed_mymul = R"(
extern "C"{
__global__
void mymul(int n, const double* x1, const double* x2, double* y){
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < n){
        y[tid] = x1[tid] * x2[tid];
    }
}
})";

TEST(CudaSource, ReadsTheSeedKernel) {
  const auto tr = read_cuda_source(seed_mymul, "");
  ASSERT_EQ(tr.kernels.size(), 1u);
  const auto& k = tr.kernels[0];
  EXPECT_EQ(k.name, "mymul");
  EXPECT_EQ(k.symbol, "mymul");
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(k.params[0].name, "n");
  EXPECT_FALSE(k.params[0].is_pointer);
  EXPECT_EQ(k.params[0].dtype, DType::int32);
  EXPECT_EQ(k.params[0].value_size, 4u);
  for (int i = 1; i < 4; ++i) {
    EXPECT_TRUE(k.params[i].is_pointer) << i;
    EXPECT_EQ(k.params[i].space, AddressSpace::global) << i;
    EXPECT_EQ(k.params[i].dtype, DType::float64) << i;
  }
  EXPECT_EQ(k.params[1].type_name, "const double*");
  // The text is the source as written, its lines numbered as the user's.
  EXPECT_NE(tr.text.find("#line 1"), std::string::npos);
  EXPECT_NE(tr.text.find(seed_mymul), std::string::npos);
}

TEST(CudaSource, ReadsCTypesVectorsAndForms) {
  const auto tr = read_cuda_source(R"(
#include <cstdint>
// __global__ void in_a_comment(int x);
extern "C" __global__ void __launch_bounds__(256) a(unsigned long long n, unsigned u, long long s,
    const float4 v, float3 w, size_t z, unsigned char c, bool b, int64_t q, const float* __restrict__ p) {}
extern "C" __global__ void none(void) {}
extern "C" __global__ void declared_only(int n);
extern "C" { __global__ void in_block() {} }
)", "-D N=4");
  ASSERT_EQ(tr.kernels.size(), 3u);
  EXPECT_EQ(tr.kernels[0].name, "a");
  const auto& p = tr.kernels[0].params;
  ASSERT_EQ(p.size(), 10u);
  EXPECT_EQ(p[0].dtype, DType::uint64);
  EXPECT_EQ(p[1].dtype, DType::uint32);
  EXPECT_EQ(p[2].dtype, DType::int64);
  EXPECT_EQ(p[3].dtype, DType::float32);
  EXPECT_EQ(p[3].vector_width, 4u);
  EXPECT_EQ(p[3].value_size, 16u);
  EXPECT_EQ(p[4].value_size, 12u);  // CUDA's float3 is 12 bytes (OpenCL's, 16)
  EXPECT_EQ(p[5].dtype, DType::uint64);
  EXPECT_EQ(p[6].dtype, DType::uint8);
  EXPECT_EQ(p[7].dtype, DType::bool_);
  EXPECT_EQ(p[8].dtype, DType::int64);
  EXPECT_TRUE(p[9].is_pointer);
  EXPECT_EQ(p[9].dtype, DType::float32);
  EXPECT_EQ(p[9].name, "p");
  EXPECT_TRUE(tr.kernels[1].params.empty());
  EXPECT_EQ(tr.kernels[2].name, "in_block");
  EXPECT_NE(tr.text.find("#define N 4"), std::string::npos);
}

TEST(CudaSource, RefusesKernelsWithoutCLinkage) {
  try {
    read_cuda_source("__global__ void k(float* x) {}\n", "");
    FAIL() << "expected BuildError";
  } catch (const BuildError& e) {
    EXPECT_NE(std::string(e.what()).find("extern \"C\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'k'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_cuda_source("template <typename T> __global__ void k(T* x) {}\n", ""), BuildError);
  EXPECT_THROW(read_cuda_source("namespace a { __global__ void k(float* x) {} }\n", ""), BuildError);
  EXPECT_THROW(read_cuda_source("extern \"C\" __global__ void k(float& x) {}\n", ""), BuildError);
  EXPECT_THROW(read_cuda_source("extern \"C\" __global__ void k(float* x) {}\n", "-fno-such-flag"), InvalidArgument);
}

TEST(CudaSource, EveryPrefixIsReadOrRefusedCleanly) {
  // Truncated sources (a user's half-typed kernel): read, or refused with weft's errors, never
  // a crash or a read past the end (the sanitizer runs check the latter).
  const std::string src = std::string(seed_mymul) +
                          "\nextern \"C\" __global__ void __launch_bounds__(64) b(const float4* v, unsigned n) {}\n";
  for (std::size_t len = 0; len <= src.size(); ++len) {
    try {
      read_cuda_source(std::string_view(src).substr(0, len), "");
    } catch (const Error&) {
    }
  }
}

TEST(CudaSource, CompilesWithNvrtc) {
  try {
    nvrtc_version();
  } catch (const Unsupported& e) {
    const char* require = std::getenv("WEFT_REQUIRE_NVRTC");
    if (require && std::string(require) == "1") FAIL() << "NVRTC is required here: " << e.what();
    GTEST_SKIP() << e.what();
  }
  const auto tr = read_cuda_source(seed_mymul, "");
  const std::string cubin = compile_cuda(tr.text, cuda_build_flags(""), "sm_90", seed_mymul);
  EXPECT_NE(cubin.find(std::string(".text.mymul") + '\0'), std::string::npos);
  const std::string bad = "extern \"C\" __global__ void k(float* x)\n{\n    x[0] = nope;\n}\n";
  try {
    compile_cuda(read_cuda_source(bad, "").text, {}, "sm_90", bad);
    FAIL() << "expected BuildError";
  } catch (const BuildError& e) {
    EXPECT_NE(std::string(e.what()).find("3 |"), std::string::npos) << e.what();  // the user's line
  }
}

class CudaSourceOnDevice : public ::testing::TestWithParam<Device> {};

TEST_P(CudaSourceOnDevice, BuildsAndRunsWhereTheDeviceCompilesCudaC) {
  const Device& dev = GetParam();
  if (!dev.capabilities().cuda_source) {
    try {
      Program::build_cuda(dev, seed_mymul);
      FAIL() << "expected Unsupported";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find(dev.selector()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("OpenCL C"), std::string::npos) << e.what();
    }
    return;
  }
  const Program prg = Program::build_cuda(dev, seed_mymul);
  EXPECT_EQ(prg.kernel_names(), std::vector<std::string>{"mymul"});
  const std::vector<double> x1{1, 3, 5, 7, 9}, x2{2, 4, 6, 8, 10};
  Queue q(dev);
  auto b1 = Buffer::of<double>(dev, 5), b2 = Buffer::of<double>(dev, 5), y = Buffer::of<double>(dev, 5);
  q.write(b1, x1.data(), 5 * sizeof(double)).wait();
  q.write(b2, x2.data(), 5 * sizeof(double)).wait();
  Kernel k = prg.kernel("mymul");
  k.set_args(5, b1, b2, y);
  // CuPy's grid=(3,), block=(2,): 6 threads for 5 elements, the kernel's own bounds check.
  q.launch(k, NDRange{6}, NDRange{2}).wait();
  std::vector<double> out(5);
  q.read(y, out.data(), 5 * sizeof(double)).wait();
  EXPECT_EQ(out, (std::vector<double>{2, 12, 30, 56, 90}));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, CudaSourceOnDevice, ::testing::ValuesIn(test::test_devices()),
                         test::device_name);

}  // namespace
}  // namespace weft::detail
