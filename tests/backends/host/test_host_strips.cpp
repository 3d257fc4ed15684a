// The host translation's loop interchange (dialect/strip_mine.hpp): barrier-free kernels with a
// loop of uniform bounds run 64 work-items at a time with the loop outside. Each kernel here runs
// transformed and, as a reference, untransformed: the same source with a `while (0) {}` the
// transform does not take (so the host runs it one work-item at a time). Sizes are not multiples
// of 64 and some launches have an offset, so strips end inside rows and partial strips occur.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dialect/translate.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;
using test::upload;

// The exercise's per-pixel polygon kernel: early return in the uniform vertex loop, per-item ifs,
// an int subscript that the transform computes in 64 bits.
const char* const polygon_cl = R"(
__kernel void polygon(__global const float *v, int n, int width, __global uchar *mask)
{
    int x = get_global_id(0), y = get_global_id(1);
    float px = (float)x, py = (float)y;
    int counter = 0;
    for (int i = 0; i < n; ++i) {
        float x1 = v[2 * i], y1 = v[2 * i + 1];
        if (x1 == px && y1 == py) { mask[y * width + x] = 7; return; }
        int j = (i + 1) % n;
        float x2 = v[2 * j], y2 = v[2 * j + 1];
        if (py > min(y1, y2) && py <= max(y1, y2) && px <= max(x1, x2) && y1 != y2) {
            float xinters = (py - y1) * (x2 - x1) / (y2 - y1) + x1;
            if (x1 == x2 || px <= xinters) counter++;
        }
    }
    mask[y * width + x] = counter % 2;
}
)";

// Early return before the loop, nested uniform loops, a per-item variable declared inside the
// split loop, per-item writes under a per-item if, long and size_t indexing, a uniform value
// computed from global sizes.
const char* const mixed_cl = R"(
__kernel void mixed(__global const int *a, __global long *out, long w, int n, int m, int limit)
{
    size_t gx = get_global_id(0);
    long gy = get_global_id(1);
    if ((int)gx >= limit) { out[gy * w + gx] = -1; return; }
    long acc = (long)gx * 3;
    const int total = (int)get_global_size(0) + n;
    for (int i = 0; i < n; i += 2) {
        int base = a[i] * total;
        for (int k = 0; k < m; ++k) {
            long t = acc + a[(i + k) % n] - base;
            if (t % 5 == (long)(gx % 5)) acc += k; else acc -= 1;
            if (acc > 1000000) return;
        }
        if ((gx + i) % 3 == 0) acc ^= 0x55;
    }
    out[gy * w + gx] = acc;
}
)";

// The polygon kernel as weft's Python kernels write it (bench/peers/pykernels_bench.py
// polygon_pixels, its insidePolygon call inlined by python/weft/_pyk_inline.py): variables
// declared at the top and assigned later, uniform private pointers into __global memory assigned
// in the loop, calls of pure program functions (pyk_umod_long), a store before each return.
const char* const pyk_polygon_cl = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
inline long pyk_umod_long(long a, long b) { return b == 0 ? 0 : a % b; }
inline long pyk_mod_long(long a, long b) { if (b == 0) return 0; long r = a % b; if (r != 0 && ((r < 0) != (b < 0))) r += b; return r; }
__kernel void pyk_polygon(__global const double *vertices, long pyk_n_vertices_0, __global uchar *mask, long pyk_n_mask_1, uchar pyk_a_border_value) {
    bool border_value = pyk_a_border_value != 0;
    long y = 0;
    long x = 0;
    long pyk_i1_counter = 0;
    long pyk_i1_i = 0;
    double pyk_i1_xinters = 0;
    __global const double *pyk_i1_polypoint1 = 0;
    __global const double *pyk_i1_polypoint2 = 0;
    y = ((long)get_global_id(1));
    x = ((long)get_global_id(0));
    pyk_i1_counter = 0L;
    for (long pyk_i1_pyk_t1 = 0; pyk_i1_pyk_t1 < pyk_n_vertices_0; ++pyk_i1_pyk_t1) {
        pyk_i1_i = pyk_i1_pyk_t1;
        pyk_i1_polypoint1 = (vertices + pyk_i1_pyk_t1 * 2L);
        if (((pyk_i1_polypoint1[0L] == ((double)x)) && (pyk_i1_polypoint1[1L] == ((double)y)))) {
            { mask[y * pyk_n_mask_1 + x] = ((uchar)((bool)(border_value))); return; }
        }
        pyk_i1_polypoint2 = (vertices + pyk_umod_long((pyk_i1_i + 1L), pyk_n_vertices_0) * 2L);
        if ((((double)y) > min(pyk_i1_polypoint1[1L], pyk_i1_polypoint2[1L]))) {
            if ((((double)y) <= max(pyk_i1_polypoint1[1L], pyk_i1_polypoint2[1L]))) {
                if ((((double)x) <= max(pyk_i1_polypoint1[0L], pyk_i1_polypoint2[0L]))) {
                    if ((pyk_i1_polypoint1[1L] != pyk_i1_polypoint2[1L])) {
                        pyk_i1_xinters = ((((((double)y) - pyk_i1_polypoint1[1L]) * (pyk_i1_polypoint2[0L] - pyk_i1_polypoint1[0L])) / (pyk_i1_polypoint2[1L] - pyk_i1_polypoint1[1L])) + pyk_i1_polypoint1[0L]);
                        if (((pyk_i1_polypoint1[0L] == pyk_i1_polypoint2[0L]) || (((double)x) <= pyk_i1_xinters))) {
                            pyk_i1_counter = (pyk_i1_counter + 1L);
                        }
                    }
                }
            }
        }
    }
    if ((pyk_mod_long(pyk_i1_counter, 2L) == 0L)) {
        { mask[y * pyk_n_mask_1 + x] = ((uchar)((bool)false)); return; }
    } else {
        { mask[y * pyk_n_mask_1 + x] = ((uchar)((bool)true)); return; }
    }
}
)";

// The same with the work-item's indices declared with their value (as the generator writes them
// now), which the transform recomputes per lane: ((long)get_global_id(d)) in parentheses and cast.
std::string pyk_declared_ids() {
  std::string src = pyk_polygon_cl;
  const auto put = [&](const std::string& from, const std::string& to) { src.replace(src.find(from), from.size(), to); };
  put("long y = 0;", "long y = ((long)get_global_id(1));");
  put("long x = 0;", "long x = ((long)get_global_id(0));");
  put("y = ((long)get_global_id(1));\n    x = ((long)get_global_id(0));\n", "");
  return src;
}

std::string untransformed(std::string src) {
  const auto brace = src.find('{', src.find("__kernel"));
  return src.insert(brace + 1, "\n    while (0) {}");
}

bool transformed(const char* src, const char* name) {
  const auto tr = detail::dialect::translate(src, detail::dialect::Target::host);
  return tr.text.find(std::string(name) + "__strip") != std::string::npos;
}

TEST(HostStrips, TheTranslationInterchangesOnlyTheShapeItCovers) {
  EXPECT_TRUE(transformed(polygon_cl, "polygon"));
  EXPECT_TRUE(transformed(mixed_cl, "mixed"));
  EXPECT_FALSE(transformed(untransformed(polygon_cl).c_str(), "polygon"));
  EXPECT_TRUE(transformed(pyk_polygon_cl, "pyk_polygon"));
  EXPECT_TRUE(transformed(pyk_declared_ids().c_str(), "pyk_polygon"));
  EXPECT_FALSE(transformed(untransformed(pyk_polygon_cl).c_str(), "pyk_polygon"));
  // No loop of uniform bounds: the per-item loop (run_loop) already vectorizes these.
  EXPECT_FALSE(transformed("__kernel void add(__global float *a, int n) { int i = get_global_id(0); a[i] += n; }", "add"));
  // A loop of constant trip count (unrolled and vectorized on the per-item path), a loop bounded
  // per item, a read at a per-item address inside the loop (a gather once interchanged), an
  // atomic, a call of a helper that takes a pointer, address-of, a private array, break; a
  // uniform pointer assigned a per-item address.
  for (const char* body : {"float s = a[i]; for (int k = 0; k < 16; ++k) s = s * 0.5f + 1; a[i] = s;",
                           "for (int k = 0; k < i; ++k) a[i] += k;",
                           "float s = 0; for (int k = 0; k < n; ++k) s += a[i * n + k]; a[i] = s;",
                           "for (int k = 0; k < n; ++k) atomic_add((__global int*)a, k);",
                           "float s = 0; for (int k = 0; k < n; ++k) s += helper(a, k); a[i] = s;",
                           "float s = 0; for (int k = 0; k < n; ++k) { float* p = &s; *p += k; } a[i] = s;",
                           "float t[4]; for (int k = 0; k < n; ++k) { t[k & 3] = k; a[i] += t[0]; }",
                           "for (int k = 0; k < n; ++k) { if (a[i] > k) break; a[i] += 1; }",
                           "__global float *p = 0; for (int k = 0; k < n; ++k) { p = a + i; a[i] += 1; }",
                           // a parameter written per item (a strip has one copy of it): a count
                           // changed, the row-pointer idiom
                           "n = n - 1; float s = 0; for (int k = 0; k < n; ++k) s += 1; a[i] = s;",
                           "a += i; float s = 0; for (int k = 0; k < n; ++k) s += 1; a[0] = s;",
                           // the program's macros (they could hide return, break, continue, calls)
                           "for (int k = 0; k < n; ++k) { if (k == i) STOP; a[i] += 1; }",
                           "float s = 0; for (int k = 0; k < n; ++k) s += TWO; a[i] = s;"}) {
    const std::string src = std::string("#define STOP break\n#define TWO 2.0f\nfloat helper(__global float *p, int k) "
                                        "{ return p[k]; }\n__kernel void k1(__global float *a, int n) {"
                                        " int i = get_global_id(0); ") + body + " }";
    EXPECT_FALSE(transformed(src.c_str(), "k1")) << body;
  }
}

std::vector<float> star(int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) {
    const double r = i % 2 ? 13.0 : 31.0, t = 6.283185307179586 * i / n;
    // Vertices on integer pixels now and then, so the early return is taken.
    const double px = 40 + r * std::cos(t), py = 20 + r * std::sin(t);
    v.push_back(static_cast<float>(i % 3 == 0 ? std::round(px) : px));
    v.push_back(static_cast<float>(i % 3 == 0 ? std::round(py) : py));
  }
  return v;
}

TEST(HostStrips, PolygonMatchesTheUntransformedKernel) {
  for (const Device& dev : test::test_devices()) {
    if (dev.backend() != "host") continue;
    Queue q(dev);
    Kernel k = Program::build(dev, polygon_cl).kernel("polygon");
    Kernel r = Program::build(dev, untransformed(polygon_cl)).kernel("polygon");
    const std::vector<float> v = star(23);
    Buffer bv = upload(q, v);
    for (const auto& [width, height] : {std::pair<int, int>{100, 45}, {64, 3}, {1, 50}, {130, 1}}) {
      const std::size_t count = static_cast<std::size_t>(width) * height;
      Buffer got = test::poisoned<unsigned char>(q, count), want = test::poisoned<unsigned char>(q, count);
      k.set_args(bv, 23, width, got);
      r.set_args(bv, 23, width, want);
      q.launch(k, NDRange(width, height));
      q.launch(r, NDRange(width, height));
      const auto g = download<unsigned char>(q, got, count), w = download<unsigned char>(q, want, count);
      EXPECT_EQ(g, w) << width << "x" << height;
      int sevens = 0;
      for (unsigned char c : w) sevens += c == 7;
      if (width == 100) {
        EXPECT_GT(sevens, 0);  // the early return was taken
      }
    }
  }
}

TEST(HostStrips, PythonKernelPolygonMatchesTheUntransformedKernel) {
  for (const Device& dev : test::test_devices()) {
    if (dev.backend() != "host") continue;
    Queue q(dev);
    for (const std::string& src : {std::string(pyk_polygon_cl), pyk_declared_ids()}) {
      Kernel k = Program::build(dev, src).kernel("pyk_polygon");
      Kernel r = Program::build(dev, untransformed(src)).kernel("pyk_polygon");
      const std::vector<float> f = star(23);
      const std::vector<double> v(f.begin(), f.end());
      Buffer bv = upload(q, v);
      for (const auto& [width, height] : {std::pair<int, int>{100, 45}, {64, 3}, {1, 50}, {130, 1}}) {
        const std::size_t count = static_cast<std::size_t>(width) * height;
        Buffer got = test::poisoned<unsigned char>(q, count), want = test::poisoned<unsigned char>(q, count);
        const long long n = 23, w = width;
        const unsigned char border = 1;
        k.set_args(bv, n, got, w, border);
        r.set_args(bv, n, want, w, border);
        q.launch(k, NDRange(width, height));
        q.launch(r, NDRange(width, height));
        const auto g = download<unsigned char>(q, got, count), want_h = download<unsigned char>(q, want, count);
        EXPECT_EQ(g, want_h) << width << "x" << height;
        int ones = 0;
        for (unsigned char c : want_h) ones += c == 1;
        if (width == 100) {
          EXPECT_GT(ones, 0);
          EXPECT_LT(ones, static_cast<int>(count));
        }
      }
    }
  }
}

TEST(HostStrips, MixedShapesMatchTheUntransformedKernel) {
  for (const Device& dev : test::test_devices()) {
    if (dev.backend() != "host") continue;
    Queue q(dev);
    Kernel k = Program::build(dev, mixed_cl).kernel("mixed");
    Kernel r = Program::build(dev, untransformed(mixed_cl)).kernel("mixed");
    std::vector<int> a(17);
    for (int i = 0; i < 17; ++i) a[i] = (i * 7919) % 23 - 11;
    Buffer ba = upload(q, a);
    const long long w = 200;  // row pitch of out; the launch covers (offset + size) <= w
    for (const auto& [sx, sy, ox, limit] : {std::tuple<int, int, int, int>{150, 5, 0, 120}, {70, 3, 9, 1000},
                                            {63, 2, 70, 100}, {129, 4, 0, 0}}) {
      const std::size_t count = static_cast<std::size_t>(w) * (sy + 1);
      Buffer got = test::poisoned<long long>(q, count), want = test::poisoned<long long>(q, count);
      k.set_args(ba, got, w, 17, 5, limit);
      r.set_args(ba, want, w, 17, 5, limit);
      q.launch(k, NDRange(sx, sy), {}, NDRange(ox, 1));
      q.launch(r, NDRange(sx, sy), {}, NDRange(ox, 1));
      EXPECT_EQ(download<long long>(q, got, count), download<long long>(q, want, count)) << sx << "x" << sy << "+" << ox;
    }
  }
}

}  // namespace
}  // namespace weft
