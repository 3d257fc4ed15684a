// polygon_mask on every device against a plain C++ transcription of the polygon exercise's
// insidePolygon, on random and adversarial polygons and awkward image sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support.hpp"
#include "weft/polygon.hpp"
#include "weft/polygon_reference.hpp"

namespace weft {
namespace {

// Distance from (px, py) to the nearest edge of the closed polygon.
double distance_to_edges(const std::vector<Point>& v, double px, double py) {
  double best = INFINITY;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Point& a = v[i];
    const Point& b = v[(i + 1) % v.size()];
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    best = std::min(best, std::hypot(px - (a.x + t * dx), py - (a.y + t * dy)));
  }
  return best;
}

std::vector<Point> random_vertices(std::mt19937& rng, int n, int lo_x, int hi_x, int lo_y, int hi_y) {
  std::uniform_int_distribution<int> dx(lo_x, hi_x), dy(lo_y, hi_y);
  std::vector<Point> v(static_cast<std::size_t>(n));
  for (auto& p : v) p = {static_cast<double>(dx(rng)), static_cast<double>(dy(rng))};
  return v;
}

std::string describe(const std::vector<Point>& v) {
  std::string s;
  for (const auto& p : v) s += "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ") ";
  return s;
}

class Polygon : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();
  Queue q{dev};

  // Asserts the device's mask equals the reference pixel for pixel; names the first
  // differing pixel.
  void expect_exact(const std::vector<Point>& v, std::size_t height, std::size_t width,
                    std::uint8_t border_value = 1) {
    const Mask m = polygon_mask(q, v, height, width, border_value);
    ASSERT_EQ(m.height, height);
    ASSERT_EQ(m.width, width);
    ASSERT_EQ(m.data.size(), height * width);
    const auto ref = polygon_mask_reference(v, height, width, border_value);
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      if (m.data[i] != ref[i] && bad++ == 0) first = i;
    }
    EXPECT_EQ(bad, 0u) << width << "x" << height << ", first at x=" << first % std::max<std::size_t>(width, 1)
                       << " y=" << first / std::max<std::size_t>(width, 1) << " (got "
                       << int(m.data[first]) << ", want " << int(ref[first]) << "), vertices " << describe(v);
  }
};

TEST_P(Polygon, RandomIntegerPolygonsMatchTheReferenceExactly) {
  std::mt19937 rng(8);
  const std::pair<std::size_t, std::size_t> sizes[] = {{37, 53}, {64, 64}, {1, 1}, {1, 1000},
                                                       {1000, 1}, {17, 250}, {129, 7}};
  for (const auto& [h, w] : sizes) {
    for (int n : {1, 2, 3, 4, 5, 8, 24, 61}) {
      // Vertices inside and around the image, as the slides draw them in [0, L].
      const int hi_x = static_cast<int>(w), hi_y = static_cast<int>(h);
      expect_exact(random_vertices(rng, n, -3, hi_x + 3, -3, hi_y + 3), h, w);
      expect_exact(random_vertices(rng, n, 0, hi_x, 0, hi_y), h, w);
    }
  }
}

TEST_P(Polygon, TheSlidesSetupOnALargeOddImage) {
  std::mt19937 rng(24);
  expect_exact(random_vertices(rng, 24, 0, 1025, 0, 1023), 1023, 1025);
}

TEST_P(Polygon, AdversarialPolygons) {
  const std::vector<std::vector<Point>> cases = {
      // A self-intersecting pentagram and a bow tie.
      {{20, 2}, {31, 37}, {2, 14}, {38, 14}, {9, 37}},
      {{2, 2}, {30, 30}, {30, 2}, {2, 30}},
      // Rectilinear (horizontal and vertical edges only), with a notch.
      {{3, 3}, {30, 3}, {30, 20}, {15, 20}, {15, 10}, {8, 10}, {8, 30}, {3, 30}},
      // Collinear points along every side, and a spike that doubles back on itself.
      {{5, 5}, {10, 5}, {15, 5}, {20, 5}, {20, 10}, {20, 15}, {10, 15}, {5, 15}, {5, 10}},
      {{5, 5}, {25, 5}, {25, 25}, {25, 5}, {5, 25}},
      // Repeated vertices, consecutive and not.
      {{4, 4}, {4, 4}, {30, 8}, {30, 8}, {12, 33}, {4, 4}},
      // Vertices far outside the image, negative and huge.
      {{-1000, -1000}, {5000, 10}, {20, 4000}},
      {{-5, 20}, {50, -7}, {60, 60}, {-9, 45}},
      {{1e9, 1e9}, {-1e9, 3}, {17, -1e9}},
      // Degenerate: all on one row, all on one column, zero area, a single point.
      {{2, 7}, {10, 7}, {30, 7}},
      {{9, 2}, {9, 20}, {9, 35}},
      {{3, 3}, {20, 20}, {35, 35}},
      {{11, 11}},
      {{11, 11}, {11, 11}},
      // Two vertices: the rule's answer (edges back and forth cancel, vertices remain).
      {{3, 4}, {29, 31}},
      {{3, 4}, {3, 31}},
      {{-4, 10}, {50, 10}},
      // Edges through pixel centres at every slope sign, touching the image's corners.
      {{0, 0}, {39, 0}, {39, 39}, {0, 39}},
      {{0, 39}, {39, 0}, {39, 39}},
      {{0, 0}, {39, 39}, {0, 39}},
  };
  for (const auto& v : cases) expect_exact(v, 40, 40);
  for (const auto& v : cases) expect_exact(v, 1, 40);
  for (const auto& v : cases) expect_exact(v, 40, 1);
}

TEST_P(Polygon, BorderValueMarksExactlyTheVertexPixels) {
  const std::vector<Point> v{{2, 2}, {12, 3}, {7, 9}, {7.5, 4}, {40, 40}};
  expect_exact(v, 12, 14, 0);
  expect_exact(v, 12, 14, 7);
  const Mask m = polygon_mask(q, v, 12, 14, 7);
  EXPECT_EQ(m.at(2, 2), 7);
  EXPECT_EQ(m.at(3, 12), 7);
  EXPECT_EQ(m.at(9, 7), 7);
}

TEST_P(Polygon, FloatVerticesDifferOnlyWithinAThousandthOfAnEdge) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> d(-4.0, 68.0);
  for (int n : {3, 7, 24}) {
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<Point> v(static_cast<std::size_t>(n));
      for (auto& p : v) p = {d(rng), d(rng)};
      if (trial == 3) v[0] = {10.0, 10.0};  // one vertex on a pixel among float ones
      const Mask m = polygon_mask(q, v, 60, 70);
      const auto ref = polygon_mask_reference(v, 60, 70);
      for (std::size_t y = 0; y < 60; ++y) {
        for (std::size_t x = 0; x < 70; ++x) {
          if (m.at(y, x) == ref[y * 70 + x]) continue;
          EXPECT_LT(distance_to_edges(v, static_cast<double>(x), static_cast<double>(y)), 1e-3)
              << "x=" << x << " y=" << y << " vertices " << describe(v);
        }
      }
    }
  }
}

// Beyond the tolerance: the kernel evaluates the reference's own expression in IEEE
// double, so float vertices give the reference's mask exactly too. Each first edge below
// has, on one row, a crossing that is an integer when computed from p1 to p2 and one ulp
// less from p2 to p1, so only the reference's orientation gets that pixel right.
TEST_P(Polygon, FloatVerticesRoundExactlyAsTheReference) {
  const std::vector<std::vector<Point>> cases = {
      {{15.4, 29.1}, {32.2, 33.3}, {2.5, 38.5}},
      {{16.0, 12.0}, {8.2, 28.9}, {37.5, 30.5}},
      {{9.3, 28.4}, {28.9, 5.2}, {39.5, 36.5}},
      {{14.1, 5.8}, {29.1, 25.8}, {1.5, 30.5}},
      {{17.9, 22.8}, {2.1, 1.2}, {38.5, 2.5}},
  };
  for (const auto& v : cases) expect_exact(v, 40, 40);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> d(-2.0, 42.0);
  for (int n : {3, 5, 24}) {
    std::vector<Point> v(static_cast<std::size_t>(n));
    for (auto& p : v) p = {std::round(d(rng) * 10) / 10, std::round(d(rng) * 10) / 10};
    expect_exact(v, 40, 40);
  }
}

TEST_P(Polygon, EnqueuedIntoADeviceBufferAfterOtherWork) {
  const std::vector<Point> v{{1, 1}, {18, 2}, {9, 15}};
  Buffer out = test::poisoned<std::uint8_t>(q, 20 * 16 + 5);
  const std::uint8_t seven = 7;
  const Event before[] = {q.fill(out, &seven, 1, 0, out.size())};
  const Event e = enqueue_polygon_mask(q, v, 16, 20, out, 1, before);
  e.wait();
  EXPECT_TRUE(e.done());
  const auto got = test::download<std::uint8_t>(q, out, out.size());
  const auto ref = polygon_mask_reference(v, 16, 20);
  EXPECT_TRUE(std::equal(ref.begin(), ref.end(), got.begin()));
  // Bytes past the mask are the caller's and stay untouched.
  for (std::size_t i = ref.size(); i < got.size(); ++i) EXPECT_EQ(got[i], 7) << i;
}

TEST_P(Polygon, EmptyPolygonsAndImages) {
  const Mask none = polygon_mask(q, {}, 5, 6);
  EXPECT_EQ(none.data, std::vector<std::uint8_t>(30, 0));
  const std::vector<Point> v{{0, 0}, {3, 0}, {0, 3}};
  EXPECT_TRUE(polygon_mask(q, v, 0, 10).data.empty());
  EXPECT_TRUE(polygon_mask(q, v, 10, 0).data.empty());
}

TEST_P(Polygon, RejectsWhatItCannotDo) {
  const std::vector<Point> nan{{0, 0}, {std::nan(""), 3}, {5, 5}};
  try {
    polygon_mask(q, nan, 8, 8);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("vertex 1"), std::string::npos) << e.what();
  }
  const std::vector<Point> inf{{0, 0}, {3, INFINITY}};
  EXPECT_THROW(polygon_mask(q, inf, 8, 8), InvalidArgument);
  const std::vector<Point> v{{0, 0}, {3, 0}, {0, 3}};
  Buffer small(dev, 10);
  try {
    enqueue_polygon_mask(q, v, 4, 4, small);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("16"), std::string::npos) << e.what();
  }
  EXPECT_THROW(polygon_mask(q, v, std::size_t{1} << 31, 2), InvalidArgument);
}

// The work-group kernel (devices other than the host backend) gives a row to a team of
// work-items, 32 pixels each, in segments of up to 8192 pixels: sizes around those bounds,
// rows narrower than a team's word and wider than a segment, odd and 4-byte-multiple widths.
TEST_P(Polygon, RowsNarrowerThanAWordAndWiderThanASegment) {
  std::mt19937 rng(81);
  const std::pair<std::size_t, std::size_t> sizes[] = {
      {300, 1}, {131, 2}, {67, 4}, {70, 31}, {65, 32}, {66, 33}, {5, 1023}, {4, 1024}, {3, 1025},
      {3, 8191}, {3, 8192}, {2, 8193}, {2, 16416}, {3, 20001}, {2, 20000}};
  for (const auto& [h, w] : sizes) {
    for (int n : {3, 24}) {
      const int hi_x = static_cast<int>(w), hi_y = static_cast<int>(h);
      expect_exact(random_vertices(rng, n, -5, hi_x + 5, -2, hi_y + 2), h, w);
    }
    // Vertices on pixels in every segment, with a border value of its own.
    std::vector<Point> v;
    for (std::size_t x = 0; x < w; x += 997) v.push_back({static_cast<double>(x), static_cast<double>(x % h)});
    v.push_back({static_cast<double>(w - 1), static_cast<double>(h - 1)});
    v.push_back({0, static_cast<double>(h - 1)});
    expect_exact(v, h, w, 5);
  }
}

// Hundreds of crossings on every row (a comb of thin teeth and dense random polygons): the
// parity of many limits, equal limits among them, and rows whose crossings fill one word.
TEST_P(Polygon, RowsWithHundredsOfCrossings) {
  std::vector<Point> comb;
  for (int tooth = 0; tooth < 300; ++tooth) {
    comb.push_back({2.0 * tooth, 1});
    comb.push_back({2.0 * tooth + 1, 62});
  }
  comb.push_back({600, 0});
  expect_exact(comb, 64, 640);
  expect_exact(comb, 64, 603);
  std::vector<Point> dense;  // every tooth inside one 32-pixel word
  for (int tooth = 0; tooth < 200; ++tooth) {
    dense.push_back({40.0 + tooth % 30, 1});
    dense.push_back({41.0 + tooth % 29, 30});
  }
  expect_exact(dense, 32, 100);
  std::mt19937 rng(12);
  for (const auto& [h, w] : {std::pair<std::size_t, std::size_t>{50, 300}, {40, 9000}, {300, 20}}) {
    const int hi_x = static_cast<int>(w), hi_y = static_cast<int>(h);
    expect_exact(random_vertices(rng, 700, 0, hi_x, 0, hi_y), h, w);
  }
}

// Many vertices on pixels: more than the kernel scans item by item (it then searches for each
// row's first), several rows of them, and rows with none between.
TEST_P(Polygon, ManyVertexPixels) {
  std::vector<Point> zigzag;
  for (int x = 0; x < 400; ++x) zigzag.push_back({static_cast<double>(x), x % 2 ? 5.0 : 9.0});
  zigzag.push_back({399, 30});
  zigzag.push_back({0, 30});
  expect_exact(zigzag, 40, 400, 3);
  expect_exact(zigzag, 40, 401, 3);
  std::mt19937 rng(77);
  expect_exact(random_vertices(rng, 3000, 0, 59, 0, 49), 50, 60, 9);
  expect_exact(random_vertices(rng, 3000, -10, 70, -10, 60), 50, 61, 0);
}

// polygon_mask keeps device memory between calls on devices with work-groups; a call after
// a larger or smaller one must not see stale bytes or parameters.
TEST_P(Polygon, RepeatedCallsOfChangingSizes) {
  std::mt19937 rng(31);
  const std::pair<std::size_t, std::size_t> sizes[] = {{300, 500}, {7, 9}, {64, 64}, {300, 500}, {1, 1}, {90, 77}};
  int n = 3;
  for (const auto& [h, w] : sizes) {
    const int hi_x = static_cast<int>(w), hi_y = static_cast<int>(h);
    expect_exact(random_vertices(rng, n, 0, hi_x, 0, hi_y), h, w, static_cast<std::uint8_t>(n));
    n = n * 3 + 1;
  }
}

// Calls from several threads at once, each with its own queue on the same device.
TEST_P(Polygon, ConcurrentCallsOnOneDevice) {
  std::vector<std::vector<Point>> polys;
  std::mt19937 rng(4);
  for (int i = 0; i < 4; ++i) polys.push_back(random_vertices(rng, 10 + 7 * i, 0, 200, 0, 150));
  std::vector<std::vector<std::uint8_t>> got(polys.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < polys.size(); ++i) {
    threads.emplace_back([&, i] {
      Queue mine(dev);
      for (int repeat = 0; repeat < 5; ++repeat) got[i] = polygon_mask(mine, polys[i], 150, 200).data;
    });
  }
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < polys.size(); ++i) EXPECT_EQ(got[i], polygon_mask_reference(polys[i], 150, 200)) << i;
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Polygon, ::testing::ValuesIn(test::test_devices()), test::device_name);

TEST(PolygonMask, DefaultDeviceOverloadMatchesTheQueueOne) {
  const std::vector<Point> v{{2, 1}, {14, 6}, {5, 12}};
  Queue q(device("host"));
  EXPECT_EQ(polygon_mask(v, 13, 15, device("host")).data, polygon_mask(q, v, 13, 15).data);
}

TEST(PolygonMask, RandomPolygonIsTheSlidesDrawAndRepeatsForASeed) {
  const auto a = random_polygon(500, 3, 4, 2);
  EXPECT_EQ(a, random_polygon(500, 3, 4, 2));
  EXPECT_NE(a, random_polygon(500, 4, 4, 2));
  bool x_ends[2] = {}, y_ends[2] = {};
  for (const Point& p : a) {
    ASSERT_TRUE(p.x >= 0 && p.x <= 4 && p.x == std::floor(p.x)) << p.x;
    ASSERT_TRUE(p.y >= 0 && p.y <= 2 && p.y == std::floor(p.y)) << p.y;
    x_ends[0] |= p.x == 0;
    x_ends[1] |= p.x == 4;
    y_ends[0] |= p.y == 0;
    y_ends[1] |= p.y == 2;
  }
  // Both ends are drawn, as Python's randint(0, L) draws them.
  EXPECT_TRUE(x_ends[0] && x_ends[1] && y_ends[0] && y_ends[1]);
  EXPECT_EQ(random_polygon(24, 1, 1023, 1025).size(), 24u);
}

}  // namespace
}  // namespace weft
