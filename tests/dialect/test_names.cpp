// One dialect everywhere: every OpenCL C identifier is a valid name on every backend, C++
// keywords included (the host and CUDA translations rename them), and the host prelude
// defines no name OpenCL C does not.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "backends/host/host_compiler.hpp"
#include "core/files.hpp"
#include "core/process.hpp"
#include "dialect/build_options.hpp"
#include "dialect/keywords.hpp"
#include "dialect/translate.hpp"
#include "embedded/weft_test_kernels.hpp"
#include "support.hpp"

namespace weft {
namespace {

using detail::dialect::cxx_defines;
using detail::dialect::cxx_name;
using detail::dialect::Target;
using detail::dialect::translate;

std::string renamed(const std::string& src) {
  const auto p = detail::dialect::parse(src);
  return detail::dialect::apply_edits(src, detail::dialect::keyword_renames(p));
}

TEST(DialectNames, KeywordsAreRenamedAsIdentifiersOnly) {
  EXPECT_EQ(renamed("int class = new + this; float x = 1.0f;"),
            "int weft_kw_class = weft_kw_new + weft_kw_this; float x = 1.0f;");
  // Strings and characters keep their text; members and macro bodies are renamed.
  EXPECT_EQ(renamed("printf(\"class %d\", s.new); char c = 'x';"), "printf(\"class %d\", s.weft_kw_new); char c = 'x';");
  EXPECT_EQ(renamed("#define new(and) (and + 1)\n#if defined(virtual)\n#endif\n"),
            "#define weft_kw_new(weft_kw_and) (weft_kw_and + 1)\n#if defined(weft_kw_virtual)\n#endif\n");
  // Include and pragma lines are not code.
  EXPECT_EQ(renamed("#include \"new/class.h\"\n#include <this.h>\n#pragma unroll new\nint not;\n"),
            "#include \"new/class.h\"\n#include <this.h>\n#pragma unroll new\nint weft_kw_not;\n");
  // OpenCL C's own keywords keep their meaning.
  EXPECT_EQ(renamed("bool b = true || false; private int p; inline void f(void);"),
            "bool b = true || false; private int p; inline void f(void);");
  // Names with a weft_ prefix are the dialect's own.
  EXPECT_EQ(cxx_name("weft_kw_class"), "weft_kw_class");
  EXPECT_EQ(cxx_name("template"), "weft_kw_template");
}

TEST(DialectNames, DefinesFromBuildOptionsMeetTheRenamedSource) {
  EXPECT_EQ(cxx_defines("-D class=new -DN=4 -D MSG=\"new\" -DFLAG -I class"),
            "#define weft_kw_class weft_kw_new\n#define N 4\n#define MSG \"new\"\n#define FLAG 1\n");
}

TEST(DialectNames, KernelsKeepTheirOpenCLNames) {
  const std::string src = "__kernel void class(__global int* new) { new[0] = 1; }\n"
                          "__kernel void plain(__global int* x) { x[0] = 2; }\n";
  for (Target t : {Target::host, Target::cuda, Target::opencl}) {
    const auto tr = translate(src, t);
    ASSERT_EQ(tr.kernels.size(), 2u);
    EXPECT_EQ(tr.kernels[0].name, "class");
    EXPECT_EQ(tr.kernels[0].symbol, t == Target::opencl ? "class" : "weft_kw_class");
    EXPECT_EQ(tr.kernels[0].params[0].name, "new");
    EXPECT_EQ(tr.kernels[1].symbol, "plain");
  }
  const auto host = translate(src, Target::host);
  EXPECT_NE(host.text.find("weft_run_weft_kw_class("), std::string::npos);
  EXPECT_NE(host.text.find("weft_info_weft_kw_class "), std::string::npos);
}

TEST(DialectNames, OpenCLRenamesOnlyTheGnuKeywordsOfClangDrivers) {
  // NVIDIA's OpenCL compiler (clang, GNU mode) reads `asm` and `typeof` as keywords.
  const std::string src = "__kernel void typeof(__global int* asm, int class) { asm[0] = class; }";
  const auto t = translate(src, Target::opencl);
  EXPECT_EQ(t.text.find(" typeof("), std::string::npos) << t.text;
  EXPECT_EQ(t.text.find(" asm"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("weft_kw_typeof("), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("int class"), std::string::npos) << "C++ keywords stay as OpenCL C has them: " << t.text;
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.kernels[0].name, "typeof");
  EXPECT_EQ(t.kernels[0].symbol, "weft_kw_typeof");
  const std::string plain = "__kernel void k(__global int* x) { x[0] = 1; }";
  EXPECT_EQ(translate(plain, Target::opencl).text, plain);
  // Inline PTX, as weft's own NVIDIA kernels write it, stays a statement.
  const std::string ptx = "void f(int n) { asm volatile(\"nanosleep.u32 %0;\" :: \"r\"(n)); asm(\"membar.gl;\"); }\n"
                          "__kernel void k(__global int* x) { f(x[0]); }";
  EXPECT_EQ(translate(ptx, Target::opencl).text, ptx);
}

TEST(DialectNames, EveryTargetRefusesOverlongKernelNames) {
  const std::string src = "__kernel void " + std::string(1000, 'k') + "(__global int* x) { }";
  for (Target t : {Target::host, Target::cuda, Target::opencl}) EXPECT_THROW(translate(src, t), BuildError);
  const std::string helper = "void " + std::string(1000, 'h') + "(void) { }\n__kernel void k(__global int* x) { }";
  EXPECT_NO_THROW(translate(helper, Target::opencl));  // only kernels' names reach driver caches
}

// The host prelude pastes no standard header: every macro it defines is OpenCL C's, the
// dialect's own (WEFT_...) or reserved (a leading underscore).
TEST(DialectNames, HostPreludeDefinesOnlyOpenCLNames) {
  const auto& tc = detail::HostToolchain::get();
  if (!tc.problem.empty()) GTEST_SKIP() << tc.problem;
  detail::TempDir dir("weft-prelude-");
  const std::string path = dir.path() + "/prelude.cpp";
  ASSERT_TRUE(detail::write_file_atomic(path, std::string(detail::host_prelude_text())));
  std::vector<std::string> argv = tc.command;
  for (const char* a : {"-std=c++20", "-x", "c++", "-dM", "-E", "-w"}) argv.emplace_back(a);
  argv.push_back(path);
  const auto r = detail::run_process(argv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::set<std::string> opencl{
      "CHAR_BIT", "CHAR_MAX", "CHAR_MIN", "CL_VERSION_1_0", "CL_VERSION_1_1", "CL_VERSION_1_2",
      "CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE", "DBL_DIG", "DBL_EPSILON", "DBL_MANT_DIG",
      "DBL_MAX", "DBL_MAX_10_EXP", "DBL_MAX_EXP", "DBL_MIN", "DBL_MIN_10_EXP", "DBL_MIN_EXP",
      "FLT_DIG", "FLT_EPSILON", "FLT_MANT_DIG", "FLT_MAX", "FLT_MAX_10_EXP", "FLT_MAX_EXP",
      "FLT_MIN", "FLT_MIN_10_EXP", "FLT_MIN_EXP", "FLT_RADIX", "FP_ILOGB0", "FP_ILOGBNAN",
      "HUGE_VAL", "HUGE_VALF", "INFINITY", "INT_MAX", "INT_MIN", "LONG_MAX", "LONG_MIN",
      "MAXFLOAT", "M_1_PI", "M_1_PI_F", "M_2_PI", "M_2_PI_F", "M_2_SQRTPI", "M_2_SQRTPI_F", "M_E",
      "M_E_F", "M_LN10", "M_LN10_F", "M_LN2", "M_LN2_F", "M_LOG10E", "M_LOG10E_F", "M_LOG2E",
      "M_LOG2E_F", "M_PI", "M_PI_2", "M_PI_2_F", "M_PI_4", "M_PI_4_F", "M_PI_F", "M_SQRT1_2",
      "M_SQRT1_2_F", "M_SQRT2", "M_SQRT2_F", "NAN", "NULL", "SCHAR_MAX", "SCHAR_MIN", "SHRT_MAX",
      "SHRT_MIN", "UCHAR_MAX", "UINT_MAX", "ULONG_MAX", "USHRT_MAX",
      // the address spaces, qualifiers and work-item functions, spelled as OpenCL C does
      "kernel", "global", "local", "constant", "private", "read_only", "write_only", "read_write",
      "restrict", "get_work_dim", "get_global_id", "get_global_size", "get_global_offset",
      "get_local_id", "get_local_size", "get_group_id", "get_num_groups",
      "get_enqueued_local_size"};
  std::istringstream in(r.output);
  std::string line;
  std::vector<std::string> foreign;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string define, name;
    words >> define >> name;
    name = name.substr(0, name.find('('));
    if (define != "#define" || name.empty() || name[0] == '_' || name.rfind("WEFT_", 0) == 0) continue;
    if (!opencl.count(name)) foreign.push_back(name);
  }
  EXPECT_TRUE(foreign.empty()) << "the host prelude defines " << foreign.size()
                               << " names OpenCL C does not, e.g. " << foreign.front();
}

class CxxNames : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();
  Queue q{dev};
};

TEST_P(CxxNames, KeywordNamedKernelsParametersAndFunctionsRun) {
  const Program p = Program::build(dev, test_kernels::cxx_names_cl);
  const auto names = p.kernel_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "new"), names.end());
  {
    Buffer out = test::poisoned<int>(q, 7);
    Kernel k = p.kernel("new");
    k.set_args(out, 5, 8);
    q.launch(k, 1);
    const auto o = test::download<int>(q, out, 7);
    EXPECT_EQ(o, (std::vector<int>{13, (13 ^ 1) + 38, 25, 5, 60, 496, 100}));
  }
  {
    const std::size_t n = 5;
    Buffer out = test::poisoned<int>(q, n);
    Kernel k = p.kernel("template_kernel");
    k.set_args(out, 3, 4);
    q.launch(k, n);
    const auto o = test::download<int>(q, out, n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(o[i], 190 + 12 + static_cast<int>(i)) << i;
  }
}

TEST_P(CxxNames, MacrosFromBuildOptionsMayTakeKeywordNames) {
  const Program p = Program::build(dev, "__kernel void k(__global int* out) { out[0] = class + 2; }",
                                   "-D class=new -D new=5");
  Buffer out = test::poisoned<int>(q, 1);
  Kernel k = p.kernel("k");
  k.set_args(out);
  q.launch(k, 1);
  EXPECT_EQ(test::download<int>(q, out, 1)[0], 7);
}

// Macros of the build options meet the user's source only: the names the preludes use inside
// (template parameters, members) stay free (on the host, -D N=2 once broke the prelude).
TEST_P(CxxNames, MacrosFromBuildOptionsMayTakeNamesThePreludesUse) {
  const Program p = Program::build(dev, "__kernel void k(__global T* out) { out[0] = N + V + I + size; }",
                                   "-D T=int -D N=2 -D V=3 -D I=1 -D size=1 -D element_type=x -D A -D B=");
  Buffer out = test::poisoned<int>(q, 1);
  Kernel k = p.kernel("k");
  k.set_args(out);
  q.launch(k, 1);
  EXPECT_EQ(test::download<int>(q, out, 1)[0], 7);
}

// The generators write dialect source from the user's names: keywords work there too.
TEST_P(CxxNames, GeneratorsTakeKeywordNames) {
  ElementwiseKernel k("int this, const int *class, int *new", "new[i] = class[i] * this", "template");
  const std::size_t n = 1000;
  std::vector<int> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<int>(i);
  Buffer dx = test::upload(q, x), dy = test::poisoned<int>(q, n);
  k(q, n, 3, dx, dy);
  const auto y = test::download<int>(q, dy, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 3 * static_cast<int>(i)) << i;
  ReductionKernel r(DType::int32, "0", "a + b", "operator[i] * and", "const int *operator, int and");
  EXPECT_EQ(r.reduce<int>(q, n, dx, 2).get(), 999 * 1000);
}

// PoCL aborts the process on a kernel named with 1000 characters (from 253 here): every
// backend refuses names past the limit before a compiler sees them.
TEST_P(CxxNames, KernelNamesHaveALimitOnEveryBackend) {
  const auto source = [](const std::string& name) {
    return "__kernel void " + name + "(__global int* x) { x[get_global_id(0)] = 7; }";
  };
  const std::string longest(detail::dialect::max_kernel_name, 'k');
  {
    const Program p = Program::build(dev, source(longest));
    Buffer out = test::poisoned<int>(q, 2);
    Kernel k = p.kernel(longest);
    k.set_args(out);
    q.launch(k, 2);
    EXPECT_EQ(test::download<int>(q, out, 2), (std::vector<int>{7, 7}));
  }
  for (std::size_t n : {detail::dialect::max_kernel_name + 1, std::size_t{253}, std::size_t{1000}}) {
    try {
      Program::build(dev, source(std::string(n, 'k')));
      ADD_FAILURE() << n << " characters: expected BuildError";
    } catch (const BuildError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("kernel 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...'"), std::string::npos) << what;
      EXPECT_NE(what.find(std::to_string(n) + " characters"), std::string::npos) << what;
      EXPECT_NE(what.find("at most " + std::to_string(detail::dialect::max_kernel_name)), std::string::npos) << what;
      EXPECT_LT(what.size(), 400u) << what;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllDevices, CxxNames, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
