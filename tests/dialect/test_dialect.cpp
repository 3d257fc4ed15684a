#include <gtest/gtest.h>

#include <chrono>

#include "embedded/weft_test_kernels.hpp"
#include "dialect/build_log.hpp"
#include "dialect/edits.hpp"
#include "dialect/parse.hpp"
#include "dialect/translate.hpp"
#include "dialect/vector_rewrites.hpp"
#include "weft/error.hpp"

namespace weft::detail::dialect {
namespace {

TEST(Dialect, TokenizerKeepsLinesAndSkipsComments) {
  const std::string src = "// c\n#define N 4\nfloat x = .5f; /* a\n b */ int y = a->b;\n";
  auto toks = tokenize(src);
  std::vector<std::string> texts;
  for (const auto& t : toks) texts.emplace_back(t.text(src));
  EXPECT_EQ(texts, (std::vector<std::string>{"#", "define", "N", "4", "float", "x", "=", ".5f", ";",
                                             "int", "y", "=", "a", "->", "b", ";"}));
  EXPECT_TRUE(toks[1].in_directive);
  EXPECT_FALSE(toks[4].in_directive);
  EXPECT_EQ(toks[4].line, 3);
  EXPECT_EQ(toks[9].line, 4);
}

TEST(Dialect, FindsKernelsAndParameters) {
  const auto p = parse(weft::test_kernels::misc_cl);
  const auto kernels = p.kernels();
  ASSERT_EQ(kernels.size(), 4u);
  const Function* h = p.find("histogram");
  ASSERT_NE(h, nullptr);
  ASSERT_EQ(h->params.size(), 3u);
  EXPECT_EQ(h->params[0].name, "values");
  EXPECT_EQ(h->params[0].type_name, "const uint*");
  EXPECT_EQ(h->params[0].space, AddressSpace::global);
  EXPECT_TRUE(h->params[0].is_pointer);
  EXPECT_EQ(h->params[0].dtype, DType::uint32);
  EXPECT_EQ(h->params[2].dtype, DType::uint32);
  EXPECT_EQ(h->params[2].value_size, 4u);
  EXPECT_FALSE(h->params[2].is_pointer);
  const Function* a = p.find("apply");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->params[2].type_name, "Params");
  EXPECT_FALSE(a->params[2].dtype.has_value());
  EXPECT_EQ(a->params[2].value_size, 16u);  // float, int, float[2]
  const Function* s = p.find("scalars");
  ASSERT_EQ(s->params.size(), 11u);
  EXPECT_EQ(s->params[1].dtype, DType::int8);
  EXPECT_EQ(s->params[2].dtype, DType::uint8);
  EXPECT_EQ(s->params[7].dtype, DType::int64);
  EXPECT_EQ(s->params[10].dtype, DType::float64);
}

TEST(Dialect, StructLayoutsFollowOpenCL) {
  const auto p = parse(
      "typedef struct { char c; float4 v; } A;\n"
      "struct B { char c; double d; short s[3]; };\n"
      "typedef struct B Bt;\n"
      "typedef union { int i; float3 f; } U;\n"
      "typedef struct { A a; char tail; } Nested;\n"
      "typedef struct { float* p; } Pointer;\n"
      "__kernel void k(A a, struct B b, Bt bt, U u, Nested n, Pointer q, uint3 w) { }");
  const Function* k = p.find("k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->params[0].value_size, 32u);  // char, pad to 16, float4
  EXPECT_EQ(k->params[1].value_size, 24u);  // char, pad, double, 3 shorts, pad to 8
  EXPECT_EQ(k->params[2].value_size, 24u);
  EXPECT_EQ(k->params[3].value_size, 16u);  // float3 is 16 bytes
  EXPECT_EQ(k->params[4].value_size, 48u);  // A (32, align 16) + char, rounded to 16
  EXPECT_EQ(k->params[5].value_size, 0u);   // pointers in structs: unknown
  EXPECT_EQ(k->params[6].value_size, 16u);
}

// Found while fuzzing (tests/fuzz/regressions/dialect): an array length past 64 bits threw
// std::out_of_range out of parse().
TEST(Dialect, StructArrayLengthsAnyWayWritten) {
  const auto p = parse(
      "typedef struct { char c[0x10]; short s[010u]; } A;\n"
      "typedef struct { float a[99999999999999999999999]; } Huge;\n"
      "typedef struct { float a[N]; } Macro;\n"
      "__kernel void k(A a, Huge h, Macro m) { }");
  const Function* k = p.find("k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->params[0].value_size, 32u);  // 16 chars, 8 shorts
  EXPECT_EQ(k->params[1].value_size, 0u);   // unknown: the compiler tells (host) or the driver
  EXPECT_EQ(k->params[2].value_size, 0u);
}

// Sources made of many small parts are read in time linear in their size: once, a struct of
// structs 9 levels deep with 8 members each was sized 8^9 times, a chain of helper functions
// took a pass per link to propagate a barrier, and the CUDA translation checked every token
// against every function.
std::string nested_structs(int levels, int members) {
  std::string src = "typedef struct { char c; } T0;\n";
  for (int l = 1; l <= levels; ++l) {
    src += "typedef struct {";
    for (int m = 0; m < members; ++m) src += " T" + std::to_string(l - 1) + " m" + std::to_string(m) + ";";
    src += " } T" + std::to_string(l) + ";\n";
  }
  return src + "__kernel void k(T" + std::to_string(levels) + " t, __global int* x) { }\n";
}

std::string helper_chain(int n) {
  std::string src;
  for (int i = 0; i < n; ++i) src += "void f" + std::to_string(i) + "(void) { f" + std::to_string(i + 1) + "(); }\n";
  src += "void f" + std::to_string(n) + "(void) { barrier(CLK_LOCAL_MEM_FENCE); }\n";
  return src + "__kernel void k(__global int* x) { f0(); }\n";
}

// Seconds a step may take here: linear work takes well under one in an optimized build, the
// quadratic and exponential work it replaced took 9 to 90 (Release, the 2-core CI machine).
#if defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
constexpr double time_limit = 60;
#elif defined(__SANITIZE_THREAD__)
// ThreadSanitizer's build: the linear work takes about 4.5 s on the 2-core VM, and went past
// 5 s when the machine was busy (CI's TSan stage, 2026-11-25).
constexpr double time_limit = 20;
#else
constexpr double time_limit = 5;
#endif

template <class F>
double seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(Dialect, LargeSourcesTakeLinearTime) {
  const std::string structs = nested_structs(9, 8);
  double t = seconds([&] {
    const auto p = parse(structs);
    EXPECT_EQ(p.find("k")->params[0].value_size, 134217728u);  // 8^9 chars
  });
  EXPECT_LT(t, time_limit) << "nested structs";
  const std::string chain = helper_chain(3000);
  t = seconds([&] {
    const auto p = parse(chain);
    EXPECT_NE(p.find("k")->group_feature.find("a call to f0(), which calls on to f3000(), which uses barrier() at line 3001"),
              std::string::npos)
        << p.find("k")->group_feature;
    EXPECT_NE(p.find("f2999")->group_feature.find("a call to f3000(), which uses barrier()"), std::string::npos);
  });
  EXPECT_LT(t, time_limit) << "helper chain";
  std::string many;
  for (int i = 0; i < 100000; ++i) many += "__constant int c" + std::to_string(i) + " = 1; int g" + std::to_string(i) + "(int a) { return a; }\n";
  t = seconds([&] { EXPECT_EQ(translate(many, Target::cuda).kernels.size(), 0u); });
  EXPECT_LT(t, time_limit) << "CUDA translation of many functions";
}

TEST(Dialect, VectorParametersAndAttributes) {
  const auto p = parse(
      "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(__global float4* v, "
      "int2 n, __constant float* c, __local uint* scratch) { }");
  const Function* k = p.find("k");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->is_kernel);
  EXPECT_EQ(k->params[0].vector_width, 4u);
  EXPECT_EQ(k->params[0].dtype, DType::float32);
  EXPECT_EQ(k->params[1].value_size, 8u);
  EXPECT_EQ(k->params[2].space, AddressSpace::constant);
  EXPECT_EQ(k->params[3].space, AddressSpace::local);
  EXPECT_NE(k->group_feature.find("__local parameter"), std::string::npos);
}

TEST(Dialect, DetectsWorkGroupFeaturesThroughCalls) {
  const auto p = parse(weft::test_kernels::group_features_cl);
  EXPECT_TRUE(p.find("scale")->group_feature.empty());
  EXPECT_NE(p.find("block_sum")->group_feature.find("__local memory at line"), std::string::npos)
      << p.find("block_sum")->group_feature;
  EXPECT_NE(p.find("via_helper")->group_feature.find("sync_group()"), std::string::npos)
      << p.find("via_helper")->group_feature;
  EXPECT_FALSE(p.find("sync_group")->is_kernel);
}

TEST(Dialect, HelperWorkItemUseIsNoticed) {
  EXPECT_TRUE(parse(weft::test_kernels::work_items_cl).helpers_use_work_items());
  EXPECT_FALSE(parse(weft::test_kernels::seed_vadd_cl).helpers_use_work_items());
}

TEST(Dialect, KernelsMustReturnVoid) {
  EXPECT_THROW(parse("__kernel int k(__global int* x) { return 0; }"), BuildError);
}

std::string rewrite(const std::string& src) {
  const auto p = parse(src);
  return apply_edits(src, vector_rewrites(p));
}

TEST(Dialect, VectorRewrites) {
  EXPECT_EQ(rewrite("float4 v = (float4)(1, 2, 3, 4);"), "float4 v = weft_make<float4>(1, 2, 3, 4);");
  EXPECT_EQ(rewrite("x = (float)(y);"), "x = (float)(y);");  // scalar casts stay
  EXPECT_EQ(rewrite("a = v.xy + v.s01 + v.lo + v.x;"),
            "a = v.weft_swz<0, 1>() + v.weft_swz<0, 1>() + v.weft_lo() + v.x;");
  EXPECT_EQ(rewrite("b = p->wzyx; c = v.sF;"), "b = p->weft_swz<3, 2, 1, 0>(); c = v.weft_swz<15>();");
  EXPECT_EQ(rewrite("i = convert_int4_sat_rte(f) + convert_float(x) + as_uint(f);"),
            "i = weft_convert<int4, true>(f) + weft_convert<float, false>(x) + weft_as<uint>(f);");
  EXPECT_EQ(rewrite("v = vload4(i, p); vstore16(w, 0, q);"),
            "v = weft_vload<4>(i, p); weft_vstore<16>(w, 0, q);");
  EXPECT_EQ(rewrite("s.count = x.step;"), "s.count = x.step;");  // ordinary members stay
  EXPECT_EQ(rewrite("y = 1.5f * z;"), "y = 1.5f * z;");
}

TEST(Dialect, HostTranslationSplitsGroupKernelsAndRefusesBarriersInHelpers) {
  const auto tr = translate(weft::test_kernels::group_features_cl, Target::host);
  std::vector<std::string> runnable, refused, groups;
  for (const auto& k : tr.kernels) {
    (k.refused.empty() ? runnable : refused).push_back(k.name);
    if (k.groups) groups.push_back(k.name);
  }
  EXPECT_EQ(runnable, (std::vector<std::string>{"scale", "block_sum"}));
  EXPECT_EQ(groups, (std::vector<std::string>{"block_sum"}));
  ASSERT_EQ(refused, (std::vector<std::string>{"via_helper"}));
  EXPECT_NE(tr.kernels[2].refused.find("sync_group() (line 6)"), std::string::npos) << tr.kernels[2].refused;
  EXPECT_NE(tr.text.find("#line 1 \"kernel.cl\""), std::string::npos);
  EXPECT_NE(tr.text.find("weft_run_scale"), std::string::npos);
  EXPECT_NE(tr.text.find("weft_groups_block_sum"), std::string::npos);
  EXPECT_EQ(tr.text.find("weft_run_via_helper"), std::string::npos);
  // The region after the first barrier keeps the user's line for compiler messages.
  EXPECT_NE(tr.text.find("#line 24 \"kernel.cl\""), std::string::npos);
}

namespace {
std::string host_build_error(const std::string& src) {
  try {
    (void)translate(src, Target::host);
  } catch (const weft::BuildError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST(Dialect, HostRefusesBarriersOutsideUniformControlFlow) {
  // Under a condition on the work-item, directly or through a variable.
  EXPECT_NE(host_build_error("__kernel void k(__global int* x) {\n int l = get_local_id(0);\n int m = l * 2;\n"
                             " if (m > 3) {\n  barrier(CLK_LOCAL_MEM_FENCE);\n }\n}")
                .find("line 5: barrier() under control flow"),
            std::string::npos);
  EXPECT_NE(host_build_error("__kernel void k(__global int* x) {\n while (x[get_global_id(0)] > 0)\n"
                             "  barrier(CLK_GLOBAL_MEM_FENCE);\n}")
                .find("depends on 'get_global_id'"),
            std::string::npos);
  // A barrier inside an expression or a switch.
  EXPECT_NE(host_build_error("__kernel void k(__global int* x) {\n x[0] = (barrier(1), 2);\n}").find("line 2"),
            std::string::npos);
  EXPECT_NE(host_build_error("__kernel void k(__global int* x) {\n switch (x[0]) {\n case 1: barrier(1); break;\n }\n}")
                .find("switch"),
            std::string::npos);
  // Uniform conditions are fine: group ids, sizes, parameters, loads at uniform addresses.
  EXPECT_EQ(host_build_error("__kernel void k(__global int* x, int n) {\n __local int t[4];\n"
                             " int g = get_group_id(0);\n for (int i = 0; i < n + g; ++i) {\n"
                             "  if (x[g] > 0 && get_local_size(0) > 2) barrier(1);\n  t[get_local_id(0)] = i;\n }\n}"),
            "no error");
}

// Found by fuzzing (tests/fuzz/regressions/build_log): a line number past int threw
// std::out_of_range out of the summary; an error line of 100 KB (a compiler quoting a long
// generated line) overflowed the stack inside std::regex.
TEST(Dialect, BuildLogSummaryTakesAnyLog) {
  const std::string huge_number = "kernel.cl:99999999999999999999: error: huge line\n";
  std::string summary;
  EXPECT_NO_THROW(summary = summarize_build_log(huge_number, "a\n", R"(kernel\.cl)"));
  EXPECT_NE(summary.find("kernel.cl:99999999999999999999: error: huge line"), std::string::npos) << summary;
  const std::string long_line = "kernel.cl:2:1: error: " + std::string(1 << 20, 'x') + "\n";
  EXPECT_NO_THROW(summary = summarize_build_log(long_line, "a\nb\n", "[^:\\s]*"));
  EXPECT_NE(summary.find("kernel.cl:2: error: xxx"), std::string::npos) << summary.substr(0, 200);
  EXPECT_NE(summary.find("2 | b"), std::string::npos);
  EXPECT_LT(summary.size(), 4096u);
}

TEST(Dialect, ExcerptMarksTheLine) {
  EXPECT_EQ(excerpt("a\nb\nc\n", 2, 3, 2), "  > 2 | b\n    3 | c\n");
}

}  // namespace
}  // namespace weft::detail::dialect
