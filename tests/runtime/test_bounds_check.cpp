// WEFT_BOUNDS_CHECK: dialect kernels' p[i] accesses on __global pointer parameters checked
// against their Buffers, on every device; the translation untouched with the mode off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "dialect/translate.hpp"
#include "runtime/bounds_check.hpp"
#include "support.hpp"

namespace weft {
namespace {

using detail::dialect::Target;
using detail::dialect::translate;

// Turns the mode on for one test (programs built meanwhile are checked), off again after.
class ModeOn {
 public:
  ModeOn() { detail::set_bounds_check(true); }
  ~ModeOn() { detail::set_bounds_check(false); }
  ModeOn(const ModeOn&) = delete;
  ModeOn& operator=(const ModeOn&) = delete;
};

// Line 4 reads `in`, line 5 writes `out`; `shift` moves the read.
constexpr const char* copy_source = R"(// a kernel with one read and one write
__kernel void scaled_copy(__global const float* in, __global float* out, int shift) {
  int i = get_global_id(0);
  float v = in[i + shift] * 2.0f;
  out[i] = v + 1.0f;
}
)";

TEST(BoundsCheckTranslation, OffLeavesTheSourceAsIs) {
  detail::set_bounds_check(false);
  EXPECT_EQ(translate(copy_source, Target::opencl).text, copy_source);
  const auto tr = translate(copy_source, Target::host);
  EXPECT_EQ(tr.text.find("weft_bc"), std::string::npos);
  EXPECT_EQ(tr.kernels.at(0).bounds, nullptr);
}

TEST(BoundsCheckTranslation, OnChecksEachGlobalParameterAndKeepsLines) {
  ModeOn on;
  for (const Target t : {Target::opencl, Target::host, Target::cuda}) {
    const auto tr = translate(copy_source, t);
    ASSERT_EQ(tr.kernels.size(), 1u);
    const auto& k = tr.kernels[0];
    ASSERT_NE(k.bounds, nullptr);
    EXPECT_EQ(k.params.size(), 3u);  // the hidden parameters are not the user's
    EXPECT_EQ(k.bounds->sized, (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(k.bounds->hidden(), 3u);
    EXPECT_NE(tr.text.find("4u, 0,"), std::string::npos) << tr.text;  // the read, line 4
    EXPECT_NE(tr.text.find("5u, 1,"), std::string::npos) << tr.text;  // the write, line 5
  }
  const std::string cl = translate(copy_source, Target::opencl).text;
  EXPECT_EQ(std::count(cl.begin(), cl.end(), '\n'), std::count(copy_source, copy_source + std::strlen(copy_source), '\n'));
}

TEST(BoundsCheckTranslation, PointersWhoseBaseIsUnknownStayUnchecked) {
  ModeOn on;
  const char* src = R"(
__kernel void k(__global float* moved, __global float* aliased, __global float* plain, __constant float* c) {
  int i = get_global_id(0);
  moved += 4;
  moved[i] = 1.0f;
  __global float* q = aliased + 1;
  q[i] = *(plain + i) + c[i];
}
)";
  const auto tr = translate(src, Target::opencl);
  // moved is reassigned, aliased and plain are only reached through pointer arithmetic, c is
  // __constant: nothing to check, the source is kept.
  EXPECT_EQ(tr.kernels.at(0).bounds, nullptr);
  EXPECT_EQ(tr.text, src);
}

class BoundsCheck : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();
  Queue q{dev};
};

TEST_P(BoundsCheck, BadReadIsReportedWithParameterLineIndexAndWorkItem) {
  ModeOn on;
  const std::size_t n = 16;
  Kernel k = Program::build(dev, copy_source).kernel("scaled_copy");
  EXPECT_EQ(k.num_args(), 3u);
  Buffer in = test::upload(q, std::vector<float>(n, 1.5f));
  Buffer out = test::upload(q, std::vector<float>(n, -7.0f));
  k.set_args(in, out, 3);  // work-items 13..15 read in[16..18]
  try {
    q.launch(k, n);
    FAIL() << "no IndexOutOfRange";
  } catch (const IndexOutOfRange& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("<source>:4:"), std::string::npos) << m;
    EXPECT_NE(m.find("kernel 'scaled_copy'"), std::string::npos) << m;
    EXPECT_NE(m.find("parameter 'in'"), std::string::npos) << m;
    EXPECT_NE(m.find("of 16 element(s)"), std::string::npos) << m;
    // The first bad access of whichever work-item got there first: index = work-item + 3.
    const auto at = m.find("index ");
    const auto wi = m.find("work-item (");
    ASSERT_NE(at, std::string::npos);
    ASSERT_NE(wi, std::string::npos);
    const long index = std::stol(m.substr(at + 6));
    const long item = std::stol(m.substr(wi + 11));
    EXPECT_EQ(index, item + 3) << m;
    EXPECT_GE(index, 16) << m;
  }
  // Good accesses were done; the bad reads gave 0, so their writes are 0 * 2 + 1.
  const auto got = test::download<float>(q, out, n);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(got[i], i + 3 < n ? 4.0f : 1.0f) << i;
  // The record was cleared: a good launch raises nothing.
  k.set_args(in, out, 0);
  q.launch(k, n).wait();
}

// The source's #line directives name the file and line of a bad access (a program pasted from
// files, or made by a generator that keeps the user's positions).
TEST_P(BoundsCheck, LineDirectivesNameTheFileAndLine) {
  ModeOn on;
  const std::string src = std::string("#line 40 \"kernels/copy.cl\"\n") + copy_source;
  Kernel k = Program::build(dev, src).kernel("scaled_copy");
  Buffer in = test::upload(q, std::vector<float>(4, 1.5f));
  Buffer out = test::upload(q, std::vector<float>(4, -7.0f));
  k.set_args(in, out, 3);
  try {
    q.launch(k, 4);
    FAIL() << "no IndexOutOfRange";
  } catch (const IndexOutOfRange& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("kernels/copy.cl:43: in kernel 'scaled_copy'", 0), 0u) << m;  // copy_source's line 4
  }
  // A directive with a number only moves the line; the file stays.
  const std::string moved = std::string("#line 100\n") + copy_source;
  Kernel k2 = Program::build(dev, moved).kernel("scaled_copy");
  k2.set_args(in, out, 3);
  try {
    q.launch(k2, 4);
    FAIL() << "no IndexOutOfRange";
  } catch (const IndexOutOfRange& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("<source>:103: in kernel", 0), 0u) << m;
  }
}

TEST_P(BoundsCheck, BadWriteNamesTheWrittenParameter) {
  ModeOn on;
  Kernel k = Program::build(dev, copy_source).kernel("scaled_copy");
  Buffer in = test::upload(q, std::vector<float>(32, 1.0f));
  Buffer out = test::upload(q, std::vector<float>(8, 0.0f));
  k.set_args(in, out, 0);
  try {
    q.launch(k, 32);
    FAIL() << "no IndexOutOfRange";
  } catch (const IndexOutOfRange& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("<source>:5:"), std::string::npos) << m;
    EXPECT_NE(m.find("parameter 'out'"), std::string::npos) << m;
    EXPECT_NE(m.find("of 8 element(s)"), std::string::npos) << m;
  }
  EXPECT_EQ(test::download<float>(q, out, 8), std::vector<float>(8, 3.0f));
}

TEST_P(BoundsCheck, ALaunchAfterAnOpenUserEventIsCheckedAtTheNextLaunch) {
  // Waiting for it at once would wait forever: this thread completes the user event later.
  ModeOn on;
  Kernel k = Program::build(dev, copy_source).kernel("scaled_copy");
  Buffer in = test::upload(q, std::vector<float>(32, 1.0f));
  Buffer out = test::upload(q, std::vector<float>(8, 0.0f));
  k.set_args(in, out, 0);
  UserEvent go;
  const Event after[] = {go};
  Event e = q.launch(k, 32, {}, {}, after);  // returns: not waited for
  go.complete();
  e.wait();
  EXPECT_EQ(test::download<float>(q, out, 8), std::vector<float>(8, 3.0f));
  k.set_args(in, out, 0);
  try {
    q.launch(k, 8);  // a good launch: the earlier one's bad write is reported now
    FAIL() << "no IndexOutOfRange";
  } catch (const IndexOutOfRange& e2) {
    const std::string m = e2.what();
    EXPECT_NE(m.find("parameter 'out'"), std::string::npos) << m;
  }
  q.launch(k, 8);  // the record was cleared
}

TEST_P(BoundsCheck, NegativeIndexAndVectorElements) {
  ModeOn on;
  const char* src = R"(__kernel void v(__global float4* x, __global const int* idx) {
  int i = get_global_id(0);
  x[idx[i]] += (float4)(1.0f);
})";
  Kernel k = Program::build(dev, src).kernel("v");
  Buffer x = test::upload(q, std::vector<float>(4 * 4, 0.0f));
  Buffer idx = test::upload(q, std::vector<int>{0, 1, -1, 3});
  k.set_args(x, idx);
  try {
    q.launch(k, 4);
    FAIL() << "no IndexOutOfRange";
  } catch (const IndexOutOfRange& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(":3:"), std::string::npos) << m;
    EXPECT_NE(m.find("index -1 is out of bounds for parameter 'x'"), std::string::npos) << m;
    EXPECT_NE(m.find("of 4 element(s)"), std::string::npos) << m;
    EXPECT_NE(m.find("work-item (2, 0, 0)"), std::string::npos) << m;
  }
  const auto got = test::download<float>(q, x, 16);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(got[i], i / 4 == 2 ? 0.0f : 1.0f) << i;
}

TEST_P(BoundsCheck, KernelsWithBarriersAndLocalMemory) {
  ModeOn on;
  // A checked read in a barrier's (uniform) condition: the host still runs it as a group kernel.
  const char* src = R"(__kernel void rev(__global const int* x, __global int* y, int n) {
  __local int t[4];
  int l = get_local_id(0); int g = get_group_id(0);
  if (x[g] >= 0) barrier(CLK_LOCAL_MEM_FENCE);
  t[l] = x[get_global_id(0) + n];
  barrier(CLK_LOCAL_MEM_FENCE);
  y[get_global_id(0)] = t[3 - l];
})";
  Kernel k = Program::build(dev, src).kernel("rev");
  Buffer x = test::upload(q, std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  Buffer y = test::upload(q, std::vector<int>(8, -1));
  k.set_args(x, y, 0);
  q.launch(k, 8, 4).wait();
  EXPECT_EQ(test::download<int>(q, y, 8), (std::vector<int>{3, 2, 1, 0, 7, 6, 5, 4}));
  k.set_args(x, y, 2);
  try {
    q.launch(k, 8, 4);
    FAIL() << "no IndexOutOfRange";
  } catch (const IndexOutOfRange& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("<source>:5:"), std::string::npos) << m;
    EXPECT_NE(m.find("parameter 'x'"), std::string::npos) << m;
  }
  EXPECT_EQ(test::download<int>(q, y, 8), (std::vector<int>{5, 4, 3, 2, 0, 0, 7, 6}));
}

INSTANTIATE_TEST_SUITE_P(Devices, BoundsCheck, ::testing::ValuesIn(test::test_devices()), test::device_name);

// Memory beyond the Buffer stays as it was: the host's buffers can wrap memory of our own,
// with a guard region after it.
TEST(BoundsCheckHost, NothingOutsideTheBufferIsWritten) {
  ModeOn on;
  const Device dev = device("host");
  Queue q(dev);
  const std::size_t n = 8, guard = 64;
  auto memory = std::make_shared<std::vector<float>>(n + guard, 42.0f);
  Buffer out = Buffer::wrap(dev, reinterpret_cast<std::uintptr_t>(memory->data()), n * sizeof(float), memory);
  Buffer in = test::upload(q, std::vector<float>(n + guard, 1.0f));
  Kernel k = Program::build(dev, copy_source).kernel("scaled_copy");
  k.set_args(in, out, 0);
  EXPECT_THROW(q.launch(k, n + guard), IndexOutOfRange);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ((*memory)[i], 3.0f) << i;
  for (std::size_t i = n; i < n + guard; ++i) EXPECT_EQ((*memory)[i], 42.0f) << i;
}

TEST(BoundsCheckHost, GraphsRefuseCheckedKernels) {
  ModeOn on;
  const Device dev = device("host");
  Queue q(dev);
  Kernel k = Program::build(dev, copy_source).kernel("scaled_copy");
  Buffer b = test::upload(q, std::vector<float>(4, 1.0f));
  k.set_args(b, b, 0);
  Graph g(dev);
  EXPECT_THROW(g.add(k, 4), Unsupported);
}

}  // namespace
}  // namespace weft
