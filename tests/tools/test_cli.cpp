// The `weft` command as a user runs it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/files.hpp"
#include "core/npy.hpp"
#include "core/process.hpp"
#include "support.hpp"
#include "weft/polygon.hpp"

#ifdef WEFT_CLI
namespace weft::detail {
namespace {

ProcessResult weft_cmd(std::vector<std::string> args, const std::string& env = "") {
  std::vector<std::string> argv{"env"};
  if (!env.empty()) argv.push_back(env);
  argv.push_back(weft::test::program_path("WEFT_TEST_CLI", WEFT_CLI));
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

TEST(Cli, Version) {
  const auto r = weft_cmd({"version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.rfind("weft ", 0), 0u) << r.output;
}

TEST(Cli, DevicesTableAndJson) {
  const auto t = weft_cmd({"devices"});
  EXPECT_EQ(t.exit_code, 0) << t.output;
  EXPECT_NE(t.output.find("host"), std::string::npos) << t.output;
  const auto j = weft_cmd({"devices", "--json"});
  EXPECT_EQ(j.exit_code, 0) << j.output;
  for (const char* key : {"\"selector\": \"host\"", "\"backend\": \"host\"", "\"name\"", "\"type\": \"cpu\"",
                          "\"compute_units\"", "\"global_mem_bytes\"", "\"max_work_group_size\"",
                          "\"capabilities\"", "\"has_barriers\": false", "\"memory_is_host\": true",
                          "\"dlpack_device_type\": 1"}) {
    EXPECT_NE(j.output.find(key), std::string::npos) << key << " missing from " << j.output;
  }
  EXPECT_EQ(j.output.front(), '[');
}

TEST(Cli, MalformedDeviceListsTheValidSelectors) {
  const auto r = weft_cmd({"devices"}, "WEFT_DEVICE=nonsense");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("nonsense"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("opencl:P:D"), std::string::npos) << r.output;
  const auto b = weft_cmd({"devices"}, "WEFT_BACKENDS=host,metal");
  EXPECT_NE(b.exit_code, 0);
  EXPECT_NE(b.output.find("metal"), std::string::npos) << b.output;
  const auto x = weft_cmd({"devices"}, "WEFT_OPENCL_PTX=maybe");
  EXPECT_NE(x.exit_code, 0);
  EXPECT_NE(x.output.find("WEFT_OPENCL_PTX='maybe'"), std::string::npos) << x.output;
}

TEST(Cli, CacheCommands) {
  TempDir dir;
  const std::string env = "WEFT_CACHE_DIR=" + dir.path();
  const auto p = weft_cmd({"cache", "path"}, env);
  EXPECT_EQ(p.output, dir.path() + "\n");
  const auto bench = weft_cmd({"bench", "vadd", "--n", "1000", "--repeat", "2", "--device", "host"}, env);
  EXPECT_EQ(bench.exit_code, 0) << bench.output;
  const auto l = weft_cmd({"cache", "list"}, env);
  EXPECT_NE(l.output.find("1 entries"), std::string::npos) << l.output;
  EXPECT_NE(l.output.find("vadd"), std::string::npos) << l.output;
  EXPECT_EQ(weft_cmd({"cache", "prune"}, env).exit_code, 0);
  const auto c = weft_cmd({"cache", "clear"}, env);
  EXPECT_NE(c.output.find("removed 1"), std::string::npos) << c.output;
  EXPECT_NE(weft_cmd({"cache", "frob"}, env).exit_code, 0);
}

TEST(Cli, BenchWritesJsonRecords) {
  TempDir dir;
  const std::string json = dir.path() + "/out.json";
  const auto r = weft_cmd({"bench", "vadd", "--n", "4096", "--repeat", "3", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto text = read_file(json);
  ASSERT_TRUE(text.has_value());
  for (const char* key : {"\"suite\": \"vadd\"", "\"method\"", "\"device\": \"host\"", "\"n\": 4096",
                          "\"dtype\": \"float32\"", "\"seconds_median\"", "\"seconds_min\"", "\"gbps\""}) {
    EXPECT_NE(text->find(key), std::string::npos) << key << " missing from " << *text;
  }
  EXPECT_NE(weft_cmd({"bench", "nosuchsuite"}).exit_code, 0);
  EXPECT_NE(weft_cmd({"bench", "--n", "many"}).exit_code, 0);
}

TEST(Cli, BenchPolygonChecksAndRecordsTheMask) {
  TempDir dir;
  const std::string json = dir.path() + "/out.json";
  const auto r = weft_cmd({"bench", "polygon", "--n", "4096", "--repeat", "2", "--device", "host", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto text = read_file(json);
  ASSERT_TRUE(text.has_value());
  for (const char* key : {"\"suite\": \"polygon\"", "\"method\": \"weft polygon_mask kernel (event)\"",
                          "\"method\": \"C++ per-pixel rule, 1 thread (wall)\"", "\"n\": 4096",
                          "\"dtype\": \"uint8\""}) {
    EXPECT_NE(text->find(key), std::string::npos) << key << " missing from " << *text;
  }
}

TEST(Cli, PolygonFromAFileWritesTheMaskAsNpyAndAPng) {
  TempDir dir;
  const std::string vertices = dir.path() + "/v.txt";
  ASSERT_TRUE(write_file_atomic(vertices, "# a triangle and a notch\n2 3\n\n40, 5\n 30.5 20 # apex\n12 9\n"));
  const std::string npy = dir.path() + "/m.npy", png = dir.path() + "/m.png";
  const auto r = weft_cmd({"polygon", "--size", "45x24", "--vertices-file", vertices, "--device", "host",
                           "--out", npy, "--png", png});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("4 vertices, 45x24 on host"), std::string::npos) << r.output;
  // The file is exactly what the library gives for the same polygon, as .npy.
  const std::vector<Point> v{{2, 3}, {40, 5}, {30.5, 20}, {12, 9}};
  const Mask m = polygon_mask(v, 24, 45, device("host"));
  const auto text = read_file(npy);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text, npy_bytes(DType::uint8, Shape{24, 45}, m.data.data()));
  const auto image = read_file(png);
  ASSERT_TRUE(image.has_value());
  EXPECT_EQ(image->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(Cli, PolygonRandomVerticesAreTheSameForTheSameSeed) {
  TempDir dir;
  const std::string a = dir.path() + "/a.npy", b = dir.path() + "/b.npy", c = dir.path() + "/c.npy";
  for (const auto& [file, seed] : {std::pair{a, "7"}, std::pair{b, "7"}, std::pair{c, "8"}}) {
    const auto r = weft_cmd({"polygon", "--size", "64x48", "--vertices", "24", "--seed", seed, "--out", file});
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  EXPECT_EQ(read_file(a), read_file(b));
  EXPECT_NE(read_file(a), read_file(c));
}

TEST(Cli, PolygonErrorsNameWhatWasWrong) {
  TempDir dir;
  const std::string bad = dir.path() + "/bad.txt";
  ASSERT_TRUE(write_file_atomic(bad, "1 2\n3 4\n5 six\n"));
  const auto line = weft_cmd({"polygon", "--size", "10x10", "--vertices-file", bad});
  EXPECT_NE(line.exit_code, 0);
  EXPECT_NE(line.output.find(bad + ":3"), std::string::npos) << line.output;
  EXPECT_NE(line.output.find("5 six"), std::string::npos) << line.output;
  for (const char* size : {"10", "x10", "10x", "0x5", "10x-3", "ax3", "1e3x4"}) {
    const auto r = weft_cmd({"polygon", "--size", size, "--vertices", "5"});
    EXPECT_NE(r.exit_code, 0) << size;
    EXPECT_NE(r.output.find("--size needs WIDTHxHEIGHT"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(std::string("'") + size + "'"), std::string::npos) << r.output;
  }
  EXPECT_NE(weft_cmd({"polygon", "--vertices", "5"}).exit_code, 0);
  EXPECT_NE(weft_cmd({"polygon", "--size", "8x8"}).exit_code, 0);
  EXPECT_NE(weft_cmd({"polygon", "--size", "8x8", "--vertices", "3", "--vertices-file", bad}).exit_code, 0);
  const auto missing = weft_cmd({"polygon", "--size", "8x8", "--vertices-file", dir.path() + "/none.txt"});
  EXPECT_NE(missing.output.find("none.txt"), std::string::npos) << missing.output;
  const auto empty = dir.path() + "/empty.txt";
  ASSERT_TRUE(write_file_atomic(empty, "# nothing\n\n"));
  EXPECT_NE(weft_cmd({"polygon", "--size", "8x8", "--vertices-file", empty}).output.find("holds no vertices"),
            std::string::npos);
}

TEST(Cli, BenchPlotDrawsAChartOrSaysWhatIsMissing) {
  TempDir dir;
  const std::string png = dir.path() + "/chart.png";
  const auto r = weft_cmd({"bench", "vadd", "--device", "host", "--n", "4096", "--repeat", "2", "--plot", png});
  const bool have_matplotlib = run_process({"python3", "-c", "import matplotlib"}).exit_code == 0;
  if (have_matplotlib) {
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto bytes = read_file(png);
    ASSERT_TRUE(bytes.has_value());
    EXPECT_EQ(bytes->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  } else {
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.output.find("matplotlib"), std::string::npos) << r.output;
  }
}

}  // namespace
}  // namespace weft::detail
#endif
