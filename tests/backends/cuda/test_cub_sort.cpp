// CUB's sort in libweft_cub (src/backends/cuda/cub): its C table and the jobs it refuses
// without a GPU, then, on each CUDA device where weft opened the plugin, sorts of sizes CUB's
// Onesweep passes and segmented sort see (beyond test_sort.cpp's, which run there too),
// bit for bit against std::stable_sort in NumPy's order: every dtype with NaN, -0.0 and
// duplicates, descending, key-value stability, many short rows, in-place raw buffers.
// Skipped where the plugin was not built or no CUDA device is there.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <climits>
#include <filesystem>
#include <string>
#include <vector>

#include "algorithms/sort_reference.hpp"
#include "backends/cuda/cub/weft_cub.h"
#include "runtime/sort_engine.hpp"
#include "support.hpp"
#include "weft/sort.hpp"

namespace weft {
namespace {

using test::apply;
using test::host_values;
using test::random_keys;
using test::reference_argsort;
using test::same_bits;
using test::show;

// libweft_cub.so beside the binary weft is linked into (these tests link it statically), as
// the CUDA backend finds it (a bundle on another machine), else where the build made it.
std::string plugin_path() {
  Dl_info info{};
  using Fn = std::vector<Device> (*)();
  const Fn fn = &weft::devices;
  if (::dladdr(reinterpret_cast<void*>(fn), &info) != 0 && info.dli_fname) {
    const auto beside = std::filesystem::path(info.dli_fname).parent_path() / "libweft_cub.so";
    if (std::filesystem::exists(beside)) return beside.string();
  }
#ifdef WEFT_TEST_CUB_LIBRARY
  return WEFT_TEST_CUB_LIBRARY;
#else
  return {};
#endif
}

TEST(CubPlugin, TableAndTheJobsItRefuses) {
  const std::string path = plugin_path();
  if (path.empty() || !std::filesystem::exists(path)) GTEST_SKIP() << "libweft_cub.so was not built (WEFT_CUB)";
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << ::dlerror();
  using Entry = const weft_cub_api* (*)();
  auto entry = reinterpret_cast<Entry>(::dlsym(lib, "weft_cub_api_v1"));
  ASSERT_NE(entry, nullptr);
  const weft_cub_api* api = entry();
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, WEFT_CUB_ABI_VERSION);
  EXPECT_NE(std::string(api->version()).find("CUB "), std::string::npos) << api->version();
  // Only the table is exported: the static CUDA runtime inside stays private.
  EXPECT_EQ(::dlsym(lib, "cudaMalloc"), nullptr);
  std::size_t bytes = 7;
  EXPECT_EQ(api->sort(nullptr, nullptr, &bytes), WEFT_CUB_INVALID);
  weft_cub_sort_job job{};
  job.struct_size = sizeof job;
  job.key_bytes = 4;
  job.count = 0;
  EXPECT_EQ(api->sort(&job, nullptr, &bytes), 0);
  EXPECT_EQ(bytes, 0u);
  job.count = 10;
  job.key_bytes = 3;
  EXPECT_EQ(api->sort(&job, nullptr, &bytes), WEFT_CUB_INVALID);
  job.key_bytes = 4;
  job.payload_bytes = 3;
  EXPECT_EQ(api->sort(&job, nullptr, &bytes), WEFT_CUB_INVALID);
  job.payload_bytes = 0;
  job.key_kind = 7;
  EXPECT_EQ(api->sort(&job, nullptr, &bytes), WEFT_CUB_INVALID);
  job.key_kind = WEFT_CUB_FLOAT;
  job.key_bytes = 1;
  EXPECT_EQ(api->sort(&job, nullptr, &bytes), WEFT_CUB_INVALID);  // no 8-bit floats
  job.key_bytes = 4;
  job.row_len = 3;  // 10 keys do not make rows of 3
  EXPECT_EQ(api->sort(&job, nullptr, &bytes), WEFT_CUB_INVALID);
  job.row_len = 5;  // rows without the index payload: weft's kernels sort those
  EXPECT_EQ(api->sort(&job, nullptr, &bytes), WEFT_CUB_UNSUPPORTED);
  job.row_len = 0;
  job.count = std::uint64_t{INT_MAX} + 1;  // beyond CUB's 32-bit counts here
  EXPECT_EQ(api->sort(&job, nullptr, &bytes), WEFT_CUB_UNSUPPORTED);
  EXPECT_STREQ(api->result_name(WEFT_CUB_UNSUPPORTED), "WEFT_CUB_UNSUPPORTED");
  ::dlclose(lib);
}

std::vector<Device> cuda_devices() {
  std::vector<Device> out;
  for (const Device& d : test::test_devices()) {
    if (d.selector().rfind("cuda", 0) == 0) out.push_back(d);
  }
  return out;
}

class CubSort : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();

  void SetUp() override {
    if (!detail::sort_engine(*dev.impl())) GTEST_SKIP() << "libweft_cub is not loaded (WEFT_LOG=info says why)";
  }

  template <class T>
  Array upload(const std::vector<T>& v, const Shape& shape, DType t = dtype_of<T>) {
    return Array::from_host_bytes(v.data(), v.size(), t, shape, dev);
  }

  template <class T>
  void expect_sorted(const std::vector<T>& v, std::size_t rows, std::size_t cols, const std::string& what) {
    const Shape shape = rows == 1 ? Shape{static_cast<std::int64_t>(cols)}
                                  : Shape{static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)};
    const Array a = upload(v, shape);
    for (bool descending : {false, true}) {
      const auto idx = reference_argsort(v, cols, descending);
      const auto want = apply(v, idx, cols);
      const auto got = host_values<T>(sort(a, -1, descending));
      EXPECT_TRUE(same_bits(got, want)) << what << (descending ? " descending" : "") << "\n got  " << show(got)
                                        << "\n want " << show(want);
      EXPECT_EQ(host_values<std::int64_t>(argsort(a, -1, descending)), idx)
          << what << (descending ? " descending" : "") << " argsort";
    }
  }
};

TEST_P(CubSort, LargeArraysOfEveryDtype) {
  const std::size_t n = (std::size_t{1} << 20) + 3;
  expect_sorted(random_keys<std::uint8_t>(n, 1, 40), 1, n, "uint8");
  expect_sorted(random_keys<std::int16_t>(n, 2, 300), 1, n, "int16");
  expect_sorted(random_keys<std::uint32_t>(n, 3, 1000000), 1, n, "uint32");
  expect_sorted(random_keys<std::int32_t>(n, 4, 50), 1, n, "int32 (few distinct)");
  expect_sorted(random_keys<std::uint64_t>(n, 5, 1000000), 1, n, "uint64");
  expect_sorted(random_keys<std::int64_t>(n, 6, 1000000), 1, n, "int64");
  expect_sorted(random_keys<float>(n, 7, 1000), 1, n, "float32 (NaN, -0.0, inf)");
  expect_sorted(random_keys<double>(n, 8, 1000), 1, n, "float64 (NaN, -0.0, inf)");
}

TEST_P(CubSort, ManyRowsInOneSegmentedSort) {
  const std::pair<std::size_t, std::size_t> shapes[] = {{100000, 5}, {3000, 1000}, {3, 300000}};
  for (const auto& [r, c] : shapes) {
    const std::string what = "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
    expect_sorted(random_keys<float>(r * c, 11, 10), r, c, "float32 " + what);
    expect_sorted(random_keys<std::int32_t>(r * c, 12, 1000000), r, c, "int32 " + what);
    expect_sorted(random_keys<std::uint64_t>(r * c, 13, 100), r, c, "uint64 " + what);
  }
}

TEST_P(CubSort, ValuesFollowTheirKeysStably) {
  const std::size_t n = (std::size_t{1} << 19) + 11;
  const auto keys_u = random_keys<std::uint32_t>(n, 21, 100);  // many ties
  const auto keys_f = random_keys<float>(n, 22, 50);
  std::vector<std::int64_t> v8(n);
  std::vector<std::uint32_t> v4(n);
  std::vector<std::int16_t> v2(n);
  for (std::size_t i = 0; i < n; ++i) {
    v8[i] = static_cast<std::int64_t>(i) * 3 - 7;
    v4[i] = static_cast<std::uint32_t>(i);
    v2[i] = static_cast<std::int16_t>(i * 5);
  }
  const Shape shape{static_cast<std::int64_t>(n)};
  for (bool descending : {false, true}) {
    const auto iu = reference_argsort(keys_u, n, descending);
    const auto if_ = reference_argsort(keys_f, n, descending);
    const std::string d = descending ? " descending" : "";
    auto [ku, vu4] = sort_by_key(upload(keys_u, shape), upload(v4, shape), -1, descending);
    EXPECT_TRUE(same_bits(host_values<std::uint32_t>(ku), apply(keys_u, iu, n))) << "uint32 keys" << d;
    EXPECT_TRUE(same_bits(host_values<std::uint32_t>(vu4), apply(v4, iu, n))) << "uint32 values" << d;
    auto [ku8, vu8] = sort_by_key(upload(keys_u, shape), upload(v8, shape), -1, descending);
    EXPECT_TRUE(same_bits(host_values<std::int64_t>(vu8), apply(v8, iu, n))) << "int64 values" << d;
    auto [kf, vf2] = sort_by_key(upload(keys_f, shape), upload(v2, shape), -1, descending);
    EXPECT_TRUE(same_bits(host_values<float>(kf), apply(keys_f, if_, n))) << "float32 keys" << d;
    EXPECT_TRUE(same_bits(host_values<std::int16_t>(vf2), apply(v2, if_, n))) << "int16 values" << d;
  }
}

TEST_P(CubSort, RawBuffersInPlace) {
  Queue q(dev);
  const std::size_t n = 300001;
  const auto keys = random_keys<double>(n, 31, 100);
  std::vector<std::uint64_t> vals(n);
  std::iota(vals.begin(), vals.end(), std::uint64_t{0});
  const Buffer k = test::upload(q, keys);
  const Buffer v = test::upload(q, vals);
  enqueue_sort_by_key(q, k, DType::float64, v, 8, n, true).wait();
  const auto idx = reference_argsort(keys, n, true);
  EXPECT_TRUE(same_bits(test::download<double>(q, k, n), apply(keys, idx, n)));
  std::vector<std::uint64_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<std::uint64_t>(idx[i]);
  EXPECT_EQ(test::download<std::uint64_t>(q, v, n), want);
  const auto u = random_keys<std::uint32_t>(n, 32, 1000000);
  const Buffer ku = test::upload(q, u);
  enqueue_sort(q, ku, DType::uint32, n).wait();
  auto sorted = u;
  std::stable_sort(sorted.begin(), sorted.end());
  EXPECT_EQ(test::download<std::uint32_t>(q, ku, n), sorted);
}

INSTANTIATE_TEST_SUITE_P(CudaDevices, CubSort, ::testing::ValuesIn(cuda_devices()), test::device_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CubSort);

}  // namespace
}  // namespace weft
