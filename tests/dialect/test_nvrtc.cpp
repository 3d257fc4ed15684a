// Every dialect kernel in the project, translated for CUDA and compiled by NVRTC. NVRTC needs
// no GPU, so this runs in CI; a kernel that does not translate fails here. With
// WEFT_REQUIRE_NVRTC=1 (set by .ci/run) a missing NVRTC is a failure, not a skip.
#include <gtest/gtest.h>

#include <cstdlib>

#include "backends/cuda/cuda_compiler.hpp"
#include "embedded/weft_test_kernels.hpp"
#include "dialect/translate.hpp"
#include "algorithms/radix_sort.hpp"
#include "algorithms/reduction_kernels.hpp"
#include "algorithms/sort_lines.hpp"
#include "array/evaluate.hpp"
#include "array/indexing.hpp"
#include "weft/elementwise.hpp"
#include "weft/error.hpp"
#include "weft/reduction.hpp"
#include "weft/scan.hpp"
#include "embedded/weft_embedded.hpp"
#include "algorithms/histogram_kernel.hpp"

namespace weft::detail {
namespace {

struct Source {
  const char* name;
  std::string_view text;
  const char* options;
};

std::vector<Source> collect_dialect_sources() {
  std::vector<Source> s{
      {"seed_vadd", test_kernels::seed_vadd_cl, ""},
      {"vector_types", test_kernels::vector_types_cl, ""},
      {"builtins", test_kernels::builtins_cl, ""},
      {"work_items", test_kernels::work_items_cl, ""},
      {"group_features", test_kernels::group_features_cl, ""},
      {"work_group_functions", test_kernels::work_group_functions_cl, ""},
      {"work_group_copies", test_kernels::work_group_copies_cl, ""},
      {"misc", test_kernels::misc_cl, ""},
      {"seed_external", test_kernels::seed_external_cl, "-D LOCAL_SIZE=256"},
      {"busy", test_kernels::busy_cl, ""},
      {"ordering", test_kernels::ordering_cl, ""},
      // Python kernels as weft generates them: 64-bit and float atomics, weft.random.*_at.
      {"python_atomics", test_kernels::python_atomics_cl, ""},
      {"python_random", test_kernels::python_random_cl, ""},
      // C++ keywords and CUDA built-in variables as names (renamed in translation).
      {"cxx_names", test_kernels::cxx_names_cl, ""},
      // Macros of the build options named like C++ keywords and like the prelude's insides.
      {"macro_names", "__kernel void k(__global T* out) { out[0] = N + V + I + size + class; }",
       "-D T=int -D N=2 -D V=3 -D I=1 -D size=1 -D element_type=x -D class=new -D new=5"},
  };
  s.push_back({"builtin/polygon", embedded::polygon_cl, ""});
  static const std::string polygon_groups = std::string(embedded::polygon_cl) + "\n" + std::string(embedded::polygon_groups_cl);
  s.push_back({"builtin/polygon_groups", polygon_groups, ""});
  s.push_back({"builtin/random", embedded::random_cl, ""});
  static const std::string random_f64 = std::string(embedded::random_cl) + "\n" + std::string(embedded::random_f64_cl);
  s.push_back({"builtin/random_f64", random_f64, ""});
  // Array-valued random parameters (random_params.cl): one kernel calling every helper.
  static const std::string random_params =
      random_f64 + "\n" + std::string(embedded::random_params_cl) + "\n" + std::string(embedded::random_params_f64_cl) +
      "\n__kernel void k(__global float* f, __global double* d, __global ulong* u, ulong s) {\n"
      "  ulong i = get_global_id(0);\n"
      "  f[i] = weft_uniform_f32_at(s, 0, 0, i, 0.0f, 1.0f) + weft_normal_f32_at(s, 0, 0, i, 0.0f, 1.0f)\n"
      "       + weft_exponential_f32_at(s, 0, 0, i, 1.0f);\n"
      "  d[i] = weft_uniform_f64_at(s, 0, 0, i, 0.0, 1.0) + weft_normal_f64_at(s, 0, 0, i, 0.0, 1.0)\n"
      "       + weft_exponential_f64_at(s, 0, 0, i, 1.0);\n"
      "  u[i] = weft_integers_narrow_at(s, 0, 0, i, 0, 9) + weft_integers_64_at(s, 0, 0, i, 0, 1ul << 40);\n"
      "}\n";
  s.push_back({"builtin/random_params", random_params, ""});
  static const std::string fft_scale = std::string(embedded::fft_scale_cl) + "\n" + std::string(embedded::fft_scale_f64_cl);
  s.push_back({"builtin/fft_scale", fft_scale, ""});
  // The generators' sources, as they are built for a GPU (work-group variants).
  static const ElementwiseKernel ew("float a, const float *x, float *y", "y[i] = a * x[i] + y[i]", "axpy");
  static const ReductionKernel red(DType::float32, "0", "a + b", "x[i] * y[i]", "const float *x, const float *y");
  static const GenericScanKernel scan(DType::int32, "const float *x, float *kept, int *count", "x[i] > 0 ? 1 : 0",
                                      "a + b", "0", "if (prev_item != item) kept[item - 1] = x[i];", "x[i] == 0");
  s.push_back({"generated/elementwise", ew.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"generated/reduction", red.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  // Maps `x[i]` of the result's type read 16 bytes at a time on CUDA (4- and 8-byte types).
  static const ReductionKernel red_f32(DType::float32, "0", "a + b", "x[i]", "const float *x");
  static const ReductionKernel red_f64(DType::float64, "-INFINITY", "max(a, b)", "x[i]", "const double *x");
  static const ReductionKernel red_i64(DType::int64, "0", "a + b", "v[i]", "long n, const long *v, long G, long acc, long k, long e");
  s.push_back({"generated/reduction_vectors_float32", red_f32.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"generated/reduction_vectors_float64", red_f64.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"generated/reduction_vectors_int64", red_i64.source(),
               "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256 -D WEFT_REDUCE_VECTORS=3"});
  static const InclusiveScanKernel cumsum(DType::float32, "a + b", "0");
  static const GenericScanKernel single(DType::float32, "const float *x, float *y", "x[i]", "a + b", "0",
                                        "y[i] = item");
  s.push_back({"generated/scan", scan.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"generated/scan_single_pass", single.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  // The single pass's warp shuffles move every scalar type (narrow integers widen).
  static const GenericScanKernel single_i8(DType::int8, "const char *x, char *y", "x[i]", "a + b", "0", "y[i] = item");
  static const GenericScanKernel single_u64(DType::uint64, "const ulong *x, ulong *y", "x[i]", "max(a, b)", "0",
                                            "y[i] = item");
  static const GenericScanKernel single_f64(DType::float64, "const double *x, double *y", "x[i]", "a * b", "1",
                                            "y[i] = prev_item");
  s.push_back({"generated/scan_single_pass_int8", single_i8.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"generated/scan_single_pass_uint64", single_u64.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=128 -D WEFT_SCAN_ITEMS=8"});
  s.push_back({"generated/scan_single_pass_float64", single_f64.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  // A look-back window narrower than the work-group.
  s.push_back({"generated/scan_single_pass_window", single.source(),
               "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256 -D WEFT_SCAN_WINDOW=32"});
  // Runs of 32 four-byte items padded to 36 words: 16-byte copies, reads and stores; a warp
  // of its own looking back (as the generator builds float32 scans for an H200), and the
  // first data warp looking back after the copy.
  s.push_back({"generated/scan_single_pass_wide", single.source(),
               "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256 -D WEFT_SCAN_ITEMS=32 -D WEFT_SCAN_WIDE=1 "
               "-D WEFT_SCAN_WINDOW=16 -D WEFT_SCAN_PREFETCH=132 -D WEFT_SCAN_GROUP_ORDER=1 "
               "-D WEFT_SCAN_LOOKBACK_WARP=1 -D WEFT_SCAN_SLEEP=64"});
  s.push_back({"generated/scan_single_pass_wide_first_warp", single.source(),
               "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256 -D WEFT_SCAN_ITEMS=32 -D WEFT_SCAN_WIDE=1 "
               "-D WEFT_SCAN_WINDOW=16 -D WEFT_SCAN_PREFETCH=66 -D WEFT_SCAN_GROUP_ORDER=1"});
  // Values wider than the status word's half: published before their words, a look-back
  // warp; and beside them, 16 bytes at a time (as the generator builds 8-byte scans for CUDA).
  s.push_back({"generated/scan_single_pass_float64_lookback_warp", single_f64.source(),
               "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256 -D WEFT_SCAN_ITEMS=12 -D WEFT_SCAN_WINDOW=16 "
               "-D WEFT_SCAN_LOOKBACK_WARP=1 -D WEFT_SCAN_SLEEP=64"});
  s.push_back({"generated/scan_single_pass_float64_status16", single_f64.source(),
               "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256 -D WEFT_SCAN_ITEMS=32 -D WEFT_SCAN_STATUS16=1"});
  s.push_back({"generated/scan_single_pass_uint64_status16", single_u64.source(),
               "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256 -D WEFT_SCAN_ITEMS=32 -D WEFT_SCAN_WINDOW=16 "
               "-D WEFT_SCAN_STATUS16=1 -D WEFT_SCAN_LOOKBACK_WARP=1"});
  // Asynchronous copies of tiles that L2 was asked for ahead (compute capability 9.0).
  s.push_back({"generated/scan_single_pass_prefetch", single.source(),
               "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256 -D WEFT_SCAN_WINDOW=32 -D WEFT_SCAN_PREFETCH=66"});
  // Inputs `x[i]` (above) copy tiles asynchronously on CUDA; mapped inputs load them.
  static const GenericScanKernel mapped(DType::int32, "const float *x, int *y", "x[i] > 0 ? 1 : 0", "a + b", "0",
                                        "y[i] = item");
  s.push_back({"generated/scan_single_pass_mapped", mapped.source(), "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  // Array expressions: every operation, casts, bool, broadcast and strided leaves, the
  // fused reduction. The arrays live on the host; only their kernels' sources are used.
  {
    const Device host = device("host");
    const Array a = Array::zeros({4, 3}, DType::float32, host);
    const Array b = Array::zeros({3}, DType::int16, host);
    const Array c = Array::zeros({3, 4}, DType::int32, host).transpose();
    const Array m = Array::zeros({4, 3}, DType::bool_, host);
    const Array u64 = Array::zeros({4, 3}, DType::uint64, host);
    const Expr e = where(m, sqrt(abs(a)) + exp(a) - log(a) * sin(a) / cos(a), -power(a, 2)) +
                   floor_divide(b, c) + remainder(c, 3) + minimum(a, b) - maximum(b, 1.5) +
                   astype(a > b, DType::uint8) + astype(c != 0, DType::float64) +
                   where(logical_and(isnan(a), logical_or(isinf(a), logical_and(isfinite(a), logical_not(m)))),
                         round(a) + floor(a) + ceil(a) + trunc(a), atan2(a, b) + hypot(a, 2) + fmin(a, b) + fmax(c, 1)) +
                   tan(a) + asin(a) + acos(a) + atan(a) + sinh(a) + cosh(a) + tanh(a) + cbrt(a) + exp2(a) + expm1(a) +
                   log2(a) + log10(a) + log1p(a) + clip(a, 0, 1) + astype((c & 3) | (~c ^ b), DType::float32) +
                   astype(logical_xor(m, m), DType::float32) + astype(~m, DType::int8);
    const Array out = Array::empty(e.shape(), e.dtype(), host);
    static const std::string eval = detail::eval_source(out, e);
    static const std::string sum = detail::sum_source(e);
    static const std::string ints = detail::eval_source(Array::empty({4, 3}, DType::int64, host),
                                                        floor_divide(c, b) + remainder(b, c) + power(c, 2) - c * b +
                                                            abs(c) + square(c) + reciprocal(b) + -b + where(a, c, 0) +
                                                            astype(b < 300, DType::int64) + astype(fabs(c) + rint(c), DType::int64) +
                                                            astype(Array::zeros({4, 3}, DType::uint64, host) < astype(c, DType::int64), DType::int64) +
                                                            astype(u64 + 18446744073709551615ULL, DType::int64));
    // The Array API's functions of issue 24 (built-ins copysign, nextafter, signbit, the
    // inverse hyperbolics; the helpers' sign, logaddexp and shifts).
    static const std::string more = detail::eval_source(
        Array::empty({4, 3}, DType::float64, host),
        asinh(a) + acosh(a) + atanh(a) + sign(a) + positive(a) + copysign(a, b) + nextafter(a, 2) + logaddexp(a, c) +
            astype(signbit(a), DType::float32) + astype(signbit(c), DType::float32) +
            astype((c << b) + (c >> 3) + sign(c) + astype((u64 << 3) >> u64, DType::int32), DType::float64) +
            astype(bitwise_left_shift(m, m), DType::float64));
    // Complex numbers (cfloat, cdouble and their helpers): every operation, casts both ways,
    // mixed real operands, a complex number argument, and a complex product along an axis.
    const Array z64 = Array::zeros({4, 3}, DType::complex64, host);
    const Array z128 = Array::zeros({3}, DType::complex128, host);
    static const std::string complex_eval = detail::eval_source(
        Array::empty({4, 3}, DType::complex128, host),
        z64 + z128 - z64 * a / z128 + power(z64, 2) + power(z128, z64) + sqrt(z64) + exp(z128) + log(z64) + log2(z64) +
            log10(z128) + sign(z64) + conj(z64) + square(z64) + reciprocal(z128) - z64 + positive(z64) +
            sin(z64) + cos(z128) + tan(z64) + sinh(z64) + cosh(z128) + tanh(z64) + asin(z64) + acos(z128) +
            atan(z64) + asinh(z64) + acosh(z128) + atanh(z64) + expm1(z64) + log1p(z128) +
            astype(abs(z64) + real(z128) + imag(z64) + angle(z64), DType::complex64) +
            where(logical_and(isnan(z64), logical_or(isinf(z128), isfinite(z64))), z64 * Expr(std::complex<double>(1, 2)),
                  astype(c, DType::complex64)) +
            astype(z64 == z128, DType::float32) + astype(z64 != 0, DType::int32) + astype(astype(z64, DType::bool_), DType::complex64));
    static const std::string complex_to_real = detail::eval_source(Array::empty({4, 3}, DType::float32, host), z64 * 2.0);
    static const std::string complex_prod = detail::axis_reduce_source(z64 * a, "prod", {0});
    s.push_back({"array/eval_complex", complex_eval, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    s.push_back({"array/eval_complex_to_real", complex_to_real, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    s.push_back({"array/axis_prod_complex", complex_prod, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    s.push_back({"array/eval", eval, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    s.push_back({"array/eval_array_api", more, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    s.push_back({"array/eval_integers", ints, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    s.push_back({"array/sum", sum, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    static std::vector<std::string> axis;
    for (const char* what : {"sum", "prod", "min", "max", "mean", "any", "all"}) {
      axis.push_back(detail::axis_reduce_source(a * c + b, what, {0}));
    }
    axis.push_back(detail::axis_reduce_source(m, "any", {-1}));
    axis.push_back(detail::axis_reduce_source(b, "sum", {0}));
    axis.push_back(detail::axis_reduce_source(a * c + b, "argmin", {1}));
    axis.push_back(detail::axis_reduce_source(m, "argmax", {0}));
    // The first stage of a split reduction (pieces of the reduced range), seeded and not.
    axis.push_back(detail::axis_reduce_source(a * c + b, "sum", {0}, 2));
    axis.push_back(detail::axis_reduce_source(a * c + b, "max", {0}, 3));
    axis.push_back(detail::axis_reduce_source(m, "any", {-1}, 2));
    axis.push_back(detail::axis_reduce_source(a * c + b, "min", {-1}, 4, true));  // interleaved parts
    axis.push_back(detail::axis_reduce_source(a * c + b, "mean", {-1}, 3, true));
    axis.push_back(detail::full_reduce_source(a * c + b, "min"));
    axis.push_back(detail::full_reduce_source(c, "max"));
    axis.push_back(detail::full_reduce_source(b, "sum"));
    axis.push_back(detail::full_reduce_source(m, "all"));
    axis.push_back(detail::first_index_source(a * c + b));
    axis.push_back(detail::first_index_source(c));
    axis.push_back(detail::scan_source(a * c + b, "cumsum", true));
    axis.push_back(detail::scan_source(c, "cumprod", false));
    axis.push_back(detail::scan_source(b, "cumsum", false));
    static const char* names[] = {"array/axis_sum", "array/axis_prod", "array/axis_min", "array/axis_max",
                                  "array/axis_mean", "array/axis_any", "array/axis_all", "array/axis_any_bool",
                                  "array/axis_sum_int16", "array/axis_argmin", "array/axis_argmax_bool",
                                  "array/axis_pieces_sum", "array/axis_pieces_max", "array/axis_pieces_any_bool",
                                  "array/axis_parts_min", "array/axis_parts_mean",
                                  "array/all_min", "array/all_max_int", "array/all_sum_int16", "array/all_all_bool",
                                  "array/first_index", "array/first_index_int", "array/cumsum_lines",
                                  "array/cumprod_int", "array/cumsum_int16"};
    for (std::size_t k = 0; k < axis.size(); ++k) {
      s.push_back({names[k], axis[k], "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    }
    // The histogram kernel's three variants: equal bins of an expression with float weights,
    // searched edges with integer weights, bincount's integers, and two axes.
    using detail::BinAxis;
    using detail::BinRule;
    const Array e32 = Array::zeros({5}, DType::float32, host), e64 = Array::zeros({5}, DType::float64, host);
    BinAxis uniform(a * a, BinRule::uniform), edges(astype(c, DType::float64)), integers(c, BinRule::integers);
    uniform.edges = e32;
    uniform.nbins = 4;
    edges.edges = e64;
    edges.nbins = 4;
    integers.nbins = 8;
    static std::vector<std::string> hist;
    for (int variant = 0; variant < 3; ++variant) {
      hist.push_back(detail::histogram_source({uniform}, Expr(c) * 0.5, variant));
      hist.push_back(detail::histogram_source({edges}, Expr(b), variant));
      hist.push_back(detail::histogram_source({integers}, std::nullopt, variant));
      hist.push_back(detail::histogram_source({uniform, edges}, std::nullopt, variant));
    }
    static const char* hist_names[] = {"private", "local", "global"};
    static const char* hist_kinds[] = {"uniform_float_weights", "edges_int_weights", "integers", "two_axes"};
    static std::vector<std::string> hist_labels;
    for (std::size_t k = 0; k < hist.size(); ++k) {
      hist_labels.push_back(std::string("array/histogram_") + hist_names[k / 4] + "_" + hist_kinds[k % 4]);
    }
    for (std::size_t k = 0; k < hist.size(); ++k) {
      s.push_back({hist_labels[k].c_str(), hist[k], "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
    }
  }
  for (const auto& [name, text] : detail::indexing_sources(DType::float64))
    s.push_back({name, text, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  // The radix sort's program: every key width and kind, keys alone and with payloads.
  static const std::string sorts[] = {
      detail::sort_program_source(DType::uint8, 0),   detail::sort_program_source(DType::int16, 2),
      detail::sort_program_source(DType::float16, 0), detail::sort_program_source(DType::float32, 8),
      detail::sort_program_source(DType::int32, 4),   detail::sort_program_source(DType::float64, 1),
      detail::sort_program_source(DType::bool_, 8)};
  static const char* sort_names[] = {"sort/uint8",         "sort/int16_by_ushort", "sort/float16",
                                     "sort/float32_index", "sort/int32_by_uint",   "sort/float64_by_uchar",
                                     "sort/bool_index"};
  for (std::size_t k = 0; k < std::size(sorts); ++k) s.push_back({sort_names[k], sorts[k], ""});
  static const std::string unique_f32 = detail::unique_source(DType::float32), unique_bool = detail::unique_source(DType::bool_),
                           search_f64 = detail::searchsorted_source(DType::float64),
                           search_i8 = detail::searchsorted_source(DType::int8);
  s.push_back({"array/unique_float32", unique_f32, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"array/unique_bool", unique_bool, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"array/searchsorted_float64", search_f64, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"array/searchsorted_int8", search_i8, "-D WEFT_EXACT=0 -D WEFT_ITEMS=4 -D WEFT_GROUP=256"});
  s.push_back({"bench/vadd", test_kernels::vadd_cl, ""});
  s.push_back({"bench/tiny", test_kernels::tiny_cl, ""});
  s.push_back({"bench/fma", test_kernels::fma_cl, ""});
  return s;
}

// Built once: the sources' texts live in function statics (the axis kernels in a vector that a
// second collection would grow and move), and two suites take the list.
const std::vector<Source>& every_dialect_source() {
  static const std::vector<Source> sources = collect_dialect_sources();
  return sources;
}

class Nvrtc : public ::testing::TestWithParam<Source> {
 protected:
  void SetUp() override {
    try {
      nvrtc_version();
    } catch (const Unsupported& e) {
      const char* require = std::getenv("WEFT_REQUIRE_NVRTC");
      if (require && std::string(require) == "1") FAIL() << "NVRTC is required here: " << e.what();
      GTEST_SKIP() << e.what();
    }
  }
};

TEST_P(Nvrtc, TranslatesAndCompiles) {
  const Source& src = GetParam();
  const auto tr = dialect::translate(src.text, dialect::Target::cuda, src.options);
  EXPECT_FALSE(tr.kernels.empty());
  try {
    const std::string cubin = compile_cuda(tr.text, cuda_build_flags(src.options), "sm_90", src.text);
    // Each kernel is a function of the CUBIN (its ELF section is named .text.<kernel>).
    for (const auto& k : tr.kernels) {
      EXPECT_NE(cubin.find(".text." + k.symbol + '\0'), std::string::npos)
          << src.name << ": kernel " << k.name << " is not in the CUBIN";
    }
  } catch (const BuildError& e) {
    FAIL() << src.name << ": " << e.what() << "\n--- full log ---\n" << e.log().substr(0, 4000);
  }
}

// The same kernels translated for CUDA without NVRTC, in one process (40 ms in all), so the
// sanitizer runs keep the translator's CUDA path over every kernel while they skip the NVRTC
// compiles above (NVRTC is not instrumented; under ASan's allocator they took 2 CPU minutes).
TEST(CudaText, EveryKernelTranslates) {
  for (const Source& src : every_dialect_source()) {
    const auto tr = dialect::translate(src.text, dialect::Target::cuda, src.options);
    EXPECT_FALSE(tr.kernels.empty()) << src.name;
    for (const auto& k : tr.kernels) {
      EXPECT_NE(tr.text.find(k.symbol), std::string::npos) << src.name << ": kernel " << k.name;
    }
  }
}

std::string source_test_name(const ::testing::TestParamInfo<Source>& param_info) {
  std::string n = param_info.param.name;
  for (auto& c : n) if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(EveryKernel, Nvrtc, ::testing::ValuesIn(every_dialect_source()), source_test_name);

TEST(NvrtcErrors, BuildErrorShowsTheUserLine) {
  try {
    nvrtc_version();
  } catch (const Unsupported& e) {
    GTEST_SKIP() << e.what();
  }
  const std::string src = "__kernel void k(__global float* x)\n{\n    x[0] = nope;\n}\n";
  const auto tr = dialect::translate(src, dialect::Target::cuda);
  try {
    compile_cuda(tr.text, {}, "sm_90", src);
    FAIL() << "expected BuildError";
  } catch (const BuildError& e) {
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("3 |"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace weft::detail
