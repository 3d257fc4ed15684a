// The scan kernels on every device (InclusiveScanKernel, ExclusiveScanKernel,
// GenericScanKernel): sizes around powers of two, the single-pass algorithm where work-groups
// exist, the order of a non-commutative scan across tiles and calls, prefetching at any
// alignment, segmented scans and stream compaction, and arguments named like the templates'
// own variables.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <numeric>

#include "generators_fixture.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;

template <class T>
void check_scans(Generators& g, Device& dev, Queue& q) {
  InclusiveScanKernel inclusive(dtype_of<T>, "a + b", "0");
  ExclusiveScanKernel exclusive(dtype_of<T>, "a + b", "0");
  for (std::size_t n : sizes) {
    const auto x = test::random_vector<T>(n, 7, T(0), T(10));
    Buffer dx = g.upload_typed(x), din = Buffer::of<T>(dev, std::max<std::size_t>(n, 1)),
           dex = Buffer::of<T>(dev, std::max<std::size_t>(n, 1));
    inclusive(q, n, dx, din);
    exclusive(q, n, dx, dex);
    const auto in = download<T>(q, din, n), ex = download<T>(q, dex, n);
    // Against a reference in long double (floats) or exact arithmetic (integers).
    long double run = 0, abs_run = 0;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const long double before = run;
      run += static_cast<long double>(x[i]);
      abs_run += std::fabs(static_cast<long double>(x[i]));
      if constexpr (std::is_floating_point_v<T>) {
        const long double tol = std::numeric_limits<T>::epsilon() * abs_run * (4.0L + 2.0L * std::sqrt(static_cast<long double>(i + 1)));
        bad += std::fabs(static_cast<long double>(in[i]) - run) > tol;
        bad += std::fabs(static_cast<long double>(ex[i]) - before) > tol;
      } else {
        bad += in[i] != static_cast<T>(run);
        bad += ex[i] != static_cast<T>(before);
      }
    }
    EXPECT_EQ(bad, 0u) << name(dtype_of<T>) << " n = " << n << " on " << dev.selector();
  }
}

TEST_P(Generators, InclusiveAndExclusiveScans) {
  check_scans<float>(*this, dev, q);
  check_scans<double>(*this, dev, q);
  check_scans<std::int32_t>(*this, dev, q);
  check_scans<std::int64_t>(*this, dev, q);
  check_scans<std::uint32_t>(*this, dev, q);
}

TEST_P(Generators, SinglePassScanWhereWorkGroupsExist) {
  // The GPU algorithm (decoupled look-back), forced on any device with work-groups.
  if (!dev.capabilities().has_barriers) GTEST_SKIP() << "the host backend has no work-group barriers";
  detail::ScopedGeneratorChoices chosen(forcing(true));
  InclusiveScanKernel inclusive(DType::int32, "a + b", "0", "// single pass");
  ExclusiveScanKernel exclusive(DType::float64, "a + b", "0", "// single pass");
  // A mapped input (not an array read as it is: no asynchronous tile copies on CUDA).
  GenericScanKernel mapped(DType::int32, "const int *x, int *y", "2 * x[i]", "a + b", "0", "y[i] = item", "",
                           "// single pass", "mapped");
  for (std::size_t n : {std::size_t{1}, std::size_t{2047}, std::size_t{2048}, std::size_t{100001}}) {
    const auto x = test::random_vector<std::int32_t>(n, 9, -50, 50);
    std::vector<double> xd(x.begin(), x.end());
    Buffer dx = upload_typed(x), dxd = upload_typed(xd), out = Buffer::of<std::int32_t>(dev, n),
           outd = Buffer::of<double>(dev, n), outm = Buffer::of<std::int32_t>(dev, n);
    inclusive(q, n, dx, out);
    exclusive(q, n, dxd, outd);
    mapped(q, n, dx, outm);
    const auto o = download<std::int32_t>(q, out, n);
    const auto od = download<double>(q, outd, n);
    const auto om = download<std::int32_t>(q, outm, n);
    std::int32_t run = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(od[i], static_cast<double>(run)) << "exclusive, n = " << n << " i = " << i;
      run += x[i];
      ASSERT_EQ(o[i], run) << "inclusive, n = " << n << " i = " << i;
      ASSERT_EQ(om[i], 2 * run) << "mapped, n = " << n << " i = " << i;
    }
  }
}

namespace {
// Composition of affine maps x -> m*x + c (mod 2^h, h = half the bits of U), packed as
// m << h | c: associative, not commutative, so a tile's carry folded in the wrong order
// shows. Three calls of different sizes in a row on one queue (the single pass numbers its
// calls and tiles instead of clearing its status words), on the device's own algorithm and,
// where work-groups exist, on the single pass. 64-bit values travel beside the single pass's
// status words, 32-bit ones inside them.
template <class U>
void check_affine_scans(Generators& g, const Device& dev, Queue& q) {
  constexpr int h = sizeof(U) * 4;
  const std::string t = sizeof(U) == 8 ? "ulong" : "uint", sfx = sizeof(U) == 8 ? "UL" : "u";
  const std::string lo = "((1" + sfx + " << " + std::to_string(h) + ") - 1)", hb = std::to_string(h);
  const std::string compose = "((((a >> " + hb + ") * (b >> " + hb + ")) & " + lo + ") << " + hb + ") | (((b >> " + hb +
                              ") * (a & " + lo + ") + (b & " + lo + ")) & " + lo + ")";
  const std::string args = "const " + t + " *x, " + t + " *y, " + t + " *z", neutral = "(1" + sfx + " << " + hb + ")";
  const DType dtype = dtype_of<U>;
  // The algorithm is chosen at a kernel's first launch on a device: each kernel has its first
  // launch under its mode's choices.
  using Toggle = Choices::Toggle;
  constexpr Toggle on = Toggle::on, off = Toggle::off, automatic = Toggle::automatic;
  struct Mode {
    bool single_pass;
    Toggle aggregates_only;
    const char* label;
    Toggle tickets = Toggle::automatic;
    Toggle lookback_warp = Toggle::automatic;
    Toggle status16 = Toggle::automatic;
  };
  std::vector<Mode> modes{{false, automatic, ""}};
  // Where work-groups exist: the single pass, and the single pass with aggregates only (every
  // look-back folds back to the first tile through long windows); on NVIDIA GPUs (tiles in
  // work-group order, a warp of its own looking back) also with tiles handed out by the
  // atomic counter, as elsewhere, with the first data warp looking back after the copy, and
  // with 8-byte values published before their status words (behind a fence) instead of
  // beside them.
  if (dev.capabilities().has_barriers) {
    modes.push_back({true, automatic, " (single pass)"});
    modes.push_back({true, on, " (single pass, aggregates only)"});
  }
  // NVIDIA GPUs run the same kernel through CUDA and through NVIDIA's OpenCL (inline PTX).
  const bool ptx = dev.info().nvidia_arch >= 70;
  if (ptx) {
    modes.push_back({true, automatic, " (single pass, tickets)", on});
    modes.push_back({true, on, " (single pass, aggregates only, tickets)", on});
    modes.push_back({true, automatic, " (single pass, the first warp looks back)", automatic, off});
    if (sizeof(U) == 8) {
      modes.push_back({true, on, " (single pass, aggregates only, fenced)", automatic, automatic, off});
      modes.push_back({true, automatic, " (single pass, a look-back warp)", automatic, on});
    }
  }
  const U mask = static_cast<U>((U{1} << h) - 1);
  for (const Mode& mode : modes) {
    GenericScanKernel scan(dtype, args, "x[i]", compose, neutral, "y[i] = item; z[i] = prev_item", "",
                           std::string("// ") + mode.label, "affine");
    Choices c = forcing(mode.single_pass);
    c.scan_aggregates_only = mode.aggregates_only;
    c.scan_tickets = mode.tickets;
    c.scan_lookback_warp = mode.lookback_warp;
    c.scan_status16 = mode.status16;
    detail::ScopedGeneratorChoices chosen(c);
    // On GPUs also a size of over a hundred tiles (look-backs of several rounds).
    std::vector<std::size_t> sizes{200001, 1, 4097, 65536};
    if (ptx) sizes.push_back((std::size_t{1} << 20) + 3);
    for (std::size_t n : sizes) {
      auto x = test::random_vector<U>(n, static_cast<unsigned>(n), 0, sizeof(U) == 8 ? 0x7fffffffffffffffULL : 0xffffffffULL);
      for (auto& v : x) v |= U{1} << h;  // odd multipliers: the composition never collapses to 0
      Buffer dx = g.upload_typed(x), dy = Buffer::of<U>(dev, n), dz = Buffer::of<U>(dev, n);
      scan(q, n, dx, dy, dz);
      const auto y = download<U>(q, dy, n);
      const auto z = download<U>(q, dz, n);
      U rm = 1, rc = 0;  // the composition so far
      std::size_t bad = 0;
      for (std::size_t i = 0; i < n; ++i) {
        bad += z[i] != static_cast<U>((rm << h) | rc);
        const U xm = static_cast<U>(x[i] >> h), xc = static_cast<U>(x[i] & mask);
        rc = static_cast<U>((xm * rc + xc) & mask);
        rm = static_cast<U>((rm * xm) & mask);
        bad += y[i] != static_cast<U>((rm << h) | rc);
      }
      EXPECT_EQ(bad, 0u) << name(dtype) << " n = " << n << " on " << dev.selector() << mode.label;
    }
  }
}
}  // namespace

TEST_P(Generators, ScansPrefetchingTilesAheadAtAnyAlignment) {
  // Tiles asked of L2 one ticket ahead (on NVIDIA GPUs of compute capability 9.0; elsewhere
  // the choice changes nothing), copied in and stored 16 bytes at a time where the arrays start
  // on a 16-byte boundary, 4 bytes at a time where one starts between (wrapped memory 4 bytes
  // into an allocation; the prefetch is skipped there too).
  if (!dev.capabilities().has_barriers) GTEST_SKIP() << "the host backend has no work-group barriers";
  Choices c = forcing(true);
  c.scan_prefetch = 1;
  detail::ScopedGeneratorChoices chosen(c);
  InclusiveScanKernel inclusive(DType::int32, "a + b", "0", "// prefetch");
  const std::size_t n = 200003;
  const auto x = test::random_vector<std::int32_t>(n, 14, -50, 50);
  Buffer dx = upload_typed(x), out = Buffer::of<std::int32_t>(dev, n);
  for (const auto& [src_skip, dst_skip] : {std::pair<std::size_t, std::size_t>{0, 0}, {1, 0}, {0, 1}}) {
    if ((src_skip || dst_skip) && !dev.capabilities().addressable_memory) continue;  // OpenCL buffers cannot be wrapped
    auto view = [&](Buffer& b, std::size_t skip) {
      return skip ? Buffer::wrap(dev, b.address() + 4 * skip, (n - skip) * 4, std::make_shared<Buffer>(b)) : b;
    };
    Buffer src = view(dx, src_skip), dst = view(out, dst_skip);
    const std::size_t m = n - src_skip - dst_skip;
    inclusive(q, m, src, dst);
    const auto o = download<std::int32_t>(q, out, m + dst_skip);
    std::int32_t run = 0;
    for (std::size_t i = 0; i < m; ++i) {
      run += x[i + src_skip];
      ASSERT_EQ(o[i + dst_skip], run) << "source +" << src_skip << ", destination +" << dst_skip << ", i = " << i;
    }
  }
}

TEST_P(Generators, ScanArgumentsMayShareNamesWithTheTemplatesLocals) {
  // The scan templates' own variables are prefixed: arguments named like them (total, base,
  // tile, carry, window, state, value, acc, k) build and scan, in both algorithms.
  const std::size_t n = 70001;
  const auto x = test::random_vector<std::int32_t>(n, 15, -50, 50);
  Buffer dx = upload_typed(x), out = Buffer::of<std::int32_t>(dev, n);
  std::vector<bool> algorithms{false};
  if (dev.capabilities().has_barriers) algorithms.push_back(true);
  for (const bool algorithm : algorithms) {
    detail::ScopedGeneratorChoices chosen(forcing(algorithm));
    GenericScanKernel scan(DType::int32,
                           "const int *total, int *base, int tile, int carry, int window, int state, int value, "
                           "int acc, int k",
                           "total[i] * tile", "a + b", "0", "base[i] = item + carry + window + state + value + acc + k",
                           "", algorithm ? "// single pass" : "", "named");
    scan(q, n, dx, out, 2, 1, 2, 3, 4, 5, 6);
    const auto o = download<std::int32_t>(q, out, n);
    std::int32_t run = 0;
    for (std::size_t i = 0; i < n; ++i) {
      run += 2 * x[i];
      ASSERT_EQ(o[i], run + 21) << "i = " << i << (algorithm ? " (single pass)" : "");
    }
  }
}

TEST_P(Generators, ScansKeepTheOrderAcrossTilesAndCalls) {
  check_affine_scans<std::uint64_t>(*this, dev, q);
  check_affine_scans<std::uint32_t>(*this, dev, q);
}

TEST_P(Generators, SegmentedScanAndStreamCompaction) {
  const std::size_t n = 70001;
  const auto x = test::random_vector<float>(n, 8, -1.0f, 1.0f);
  std::vector<std::int32_t> starts(n);
  for (std::size_t i = 0; i < n; ++i) starts[i] = (i % 997 == 0 || i % 1301 == 5) ? 1 : 0;
  Buffer dx = upload_typed(x), dstarts = upload_typed(starts);
  {
    std::vector<std::int32_t> ones(n, 1);
    Buffer d1 = upload_typed(ones), out = Buffer::of<std::int32_t>(dev, n);
    GenericScanKernel seg(DType::int32, "const int *v, const int *start, int *out", "v[i]", "a + b", "0",
                          "out[i] = item", "start[i] != 0", {}, "segmented_count");
    seg(q, n, d1, dstarts, out);
    const auto o = download<std::int32_t>(q, out, n);
    std::int32_t run = 0;
    for (std::size_t i = 0; i < n; ++i) {
      run = starts[i] ? 1 : run + 1;
      ASSERT_EQ(o[i], run) << i;
    }
  }
  {
    Buffer kept = Buffer::of<float>(dev, n), count = Buffer::of<std::int32_t>(dev, 1);
    GenericScanKernel compact(DType::int32, "const float *x, float *kept, int *count", "x[i] > 0 ? 1 : 0", "a + b",
                              "0", "if (prev_item != item) kept[item - 1] = x[i]; if (i == n - 1) *count = item;", {},
                              {}, "compact");
    compact(q, n, dx, kept, count);
    std::vector<float> ref;
    for (float v : x) {
      if (v > 0) ref.push_back(v);
    }
    const auto c = download<std::int32_t>(q, count, 1);
    ASSERT_EQ(static_cast<std::size_t>(c[0]), ref.size());
    EXPECT_EQ(download<float>(q, kept, ref.size()), ref);
  }
}


TEST_P(Generators, ScanOutputSeesTheCountAsNLikePyOpenCL) {
  // PyOpenCL's copy_if writes `if (i+1 == N) *count = item;`: N is the element count here too,
  // and an argument named N keeps its own meaning.
  const std::size_t n = 5003;
  std::vector<std::int32_t> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<std::int32_t>(i % 7) - 3;
  Buffer dx = upload_typed(x), kept = Buffer::of<std::int32_t>(dev, n), count = Buffer::of<std::int32_t>(dev, 1);
  GenericScanKernel copy_if(DType::int32, "__global int *ary, __global int *out, __global int *count",
                            "(ary[i] > 0) ? 1 : 0", "a+b", "0",
                            "if (prev_item != item) out[item-1] = ary[i]; if (i+1 == N) *count = item;", {}, {},
                            "copy_if");
  copy_if(q, n, dx, kept, count);
  std::vector<std::int32_t> ref;
  for (auto v : x) {
    if (v > 0) ref.push_back(v);
  }
  ASSERT_EQ(static_cast<std::size_t>(download<std::int32_t>(q, count, 1)[0]), ref.size());
  EXPECT_EQ(download<std::int32_t>(q, kept, ref.size()), ref);
  Buffer out = Buffer::of<std::int32_t>(dev, n);
  GenericScanKernel own_n(DType::int32, "const int *v, int *out, int N", "v[i]", "a + b", "0", "out[i] = item + N");
  own_n(q, n, dx, out, 1000);
  const auto o = download<std::int32_t>(q, out, n);
  std::int32_t run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run += x[i];
    ASSERT_EQ(o[i], run + 1000) << i;
  }
}

}  // namespace
}  // namespace weft
