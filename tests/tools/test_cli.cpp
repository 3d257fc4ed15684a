// The `weft` command as a user runs it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/files.hpp"
#include "core/process.hpp"
#include "support.hpp"

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
                          "\"compute_units\"", "\"global_mem_bytes\"", "\"max_work_group_size\""}) {
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

}  // namespace
}  // namespace weft::detail
#endif
