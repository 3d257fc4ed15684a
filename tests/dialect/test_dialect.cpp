#include <gtest/gtest.h>

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

TEST(Dialect, HostTranslationKeepsUserLinesAndRefusesGroupKernels) {
  const auto tr = translate(weft::test_kernels::group_features_cl, Target::host);
  std::vector<std::string> runnable, refused;
  for (const auto& k : tr.kernels) (k.refused.empty() ? runnable : refused).push_back(k.name);
  EXPECT_EQ(runnable, (std::vector<std::string>{"scale"}));
  EXPECT_EQ(refused.size(), 2u);
  EXPECT_NE(tr.text.find("#line 1 \"kernel.cl\""), std::string::npos);
  EXPECT_NE(tr.text.find("weft_run_scale"), std::string::npos);
  EXPECT_EQ(tr.text.find("weft_run_block_sum"), std::string::npos);
}

TEST(Dialect, ExcerptMarksTheLine) {
  EXPECT_EQ(excerpt("a\nb\nc\n", 2, 3, 2), "  > 2 | b\n    3 | c\n");
}

}  // namespace
}  // namespace weft::detail::dialect
