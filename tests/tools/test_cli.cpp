// The `weft` command as a user runs it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <thread>
#include <vector>

#include "support.hpp"
#include "tools/support/files.hpp"
#include "tools/support/npy.hpp"
#include "tools/support/process.hpp"
#include "weft/polygon.hpp"

namespace weft::tool {
namespace {

std::optional<std::string> read_file(const std::string& path) {
  try {
    return read_input_file(path, std::size_t{1} << 30, "test");
  } catch (const Error&) {
    return std::nullopt;
  }
}

bool write_file(const std::string& path, std::string_view data) {
  write_output_file(path, data);
  return true;
}

ProcessResult weft_cmd(std::vector<std::string> args, const std::string& env = "") {
  std::vector<std::string> argv{"env"};
  if (!env.empty()) argv.push_back(env);
  argv.push_back(weft::test::program_path("WEFT_TEST_CLI", WEFT_CLI));
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

TEST(Process, OnLineSeesEachLineAsPrintedAndTheOutputStaysWhole) {
  std::vector<std::string> lines;
  const auto r = run_process({"sh", "-c", "printf 'a\\tb\\n\\nc\\n' && printf last >&2"},
                             [&](const std::string& line) { lines.push_back(line); });
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, "a\tb\n\nc\nlast");
  EXPECT_EQ(lines, (std::vector<std::string>{"a\tb", "", "c", "last"}));
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
                          "\"capabilities\"", "\"has_barriers\": true", "\"memory_is_host\": true",
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
  // The program and the host prelude's precompiled header (host-pch), which the compile used.
  const auto l = weft_cmd({"cache", "list"}, env);
  EXPECT_NE(l.output.find("2 entries"), std::string::npos) << l.output;
  EXPECT_NE(l.output.find("vadd"), std::string::npos) << l.output;
  EXPECT_NE(l.output.find("host-pch  "), std::string::npos) << l.output;
  EXPECT_EQ(weft_cmd({"cache", "prune"}, env).exit_code, 0);
  const auto c = weft_cmd({"cache", "clear"}, env);
  EXPECT_NE(c.output.find("removed 2"), std::string::npos) << c.output;
  EXPECT_NE(weft_cmd({"cache", "frob"}, env).exit_code, 0);
}

TEST(Cli, CalibrateStoresWhatDevicesCostsShows) {
  // The tests' program cache (WEFT_CACHE_DIR from ctest) already holds the compiled kernels.
  const auto r = weft_cmd({"calibrate", "--quick", "--device", "host", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"launch_s\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"quick\": true"), std::string::npos) << r.output;
  // A scan queued behind another is timed: a positive figure, never above a scan waited for alone.
  const auto number = [&](const std::string& key) {
    const std::size_t at = r.output.find("\"" + key + "\": ");
    return at == std::string::npos ? -1.0 : std::stod(r.output.substr(at + key.size() + 4));
  };
  EXPECT_GT(number("scan_queued_s"), 0) << r.output;
  EXPECT_LE(number("scan_queued_s"), number("scan_launch_s")) << r.output;
  // A full reduction's value, timed whole.
  EXPECT_GT(number("reduce_s"), 0) << r.output;
  // Reads of several arrays together: none on the host, whose memory an operation reads in place.
  EXPECT_EQ(number("to_host_more_s"), 0) << r.output;
  const auto t = weft_cmd({"devices", "--costs"}, "WEFT_BACKENDS=host");
  ASSERT_EQ(t.exit_code, 0) << t.output;
  EXPECT_NE(t.output.find("\nhost "), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("(quick)"), std::string::npos) << t.output;  // the stored one, not a new measurement
  const auto bad = weft_cmd({"calibrate", "--frob"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("unknown option"), std::string::npos) << bad.output;
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
  ASSERT_TRUE(write_file(vertices, "# a triangle and a notch\n2 3\n\n40, 5\n 30.5 20 # apex\n12 9\n"));
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
  ASSERT_TRUE(write_file(bad, "1 2\n3 4\n5 six\n"));
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
  ASSERT_TRUE(write_file(empty, "# nothing\n\n"));
  EXPECT_NE(weft_cmd({"polygon", "--size", "8x8", "--vertices-file", empty}).output.find("holds no vertices"),
            std::string::npos);
  // In tiles on Dask, the Python module runs it; a Python that is not there is named.
  const auto tiled = weft_cmd({"polygon", "--size", "8x8", "--vertices", "3", "--workers", "2", "--python",
                               dir.path() + "/no-python"});
  EXPECT_NE(tiled.exit_code, 0);
  EXPECT_NE(tiled.output.find("no-python -m weft.dask_polygon"), std::string::npos) << tiled.output;
  EXPECT_NE(tiled.output.find("--python PROGRAM"), std::string::npos) << tiled.output;
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

// --- Output files: --out, --png and --json write safely (issue 23) ---

using test::mode_of;

// A small polygon written to `out` as .npy.
ProcessResult polygon_to(const std::string& flag, const std::string& out) {
  return weft_cmd({"polygon", "--size", "16x12", "--vertices", "5", "--device", "host", flag, out});
}

TEST(CliOutput, AnExistingFileKeepsItsPermissions) {
  TempDir dir;
  for (const std::string flag : {"--out", "--png", "--json"}) {
    const std::string file = dir.path() + "/private" + flag;
    write_file(file, "old");
    ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
    const auto r = flag == "--json"
                       ? weft_cmd({"bench", "vadd", "--n", "1000", "--repeat", "1", "--device", "host", "--json", file})
                       : polygon_to(flag, file);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(mode_of(file) & 07777, 0600u) << flag << " made the file " << std::oct << (mode_of(file) & 07777);
    EXPECT_NE(read_file(file), std::optional<std::string>("old")) << flag;
  }
}

TEST(CliOutput, ANewFileGetsTheUmasksPermissions) {
  TempDir dir;
  const std::string file = dir.path() + "/new.npy";
  // umask 027 in a shell that then runs weft: 0666 & ~027 = 0640.
  const auto r = run_process({"sh", "-c", "umask 027 && exec \"$@\"", "sh",
                              test::program_path("WEFT_TEST_CLI", WEFT_CLI), "polygon", "--size", "8x8", "--vertices",
                              "3", "--device", "host", "--out", file});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(mode_of(file) & 07777, 0640u) << std::oct << (mode_of(file) & 07777);
}

TEST(CliOutput, AFifoGetsTheDataWrittenThrough) {
  TempDir dir;
  const std::string fifo = dir.path() + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Held open for writing by the test itself, so the reader neither waits to open nor sees
  // the end of the data before weft has run, whatever weft does to the path.
  const int keep = ::open(fifo.c_str(), O_RDWR);
  ASSERT_GE(keep, 0);
  std::string got;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    if (fd < 0) return;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
  });
  const auto r = weft_cmd({"bench", "vadd", "--n", "1000", "--repeat", "1", "--device", "host", "--json", fifo});
  ::close(keep);  // the reader now sees the end of what weft wrote
  reader.join();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(got.find("\"suite\": \"vadd\""), std::string::npos) << got;
  EXPECT_TRUE(S_ISFIFO(mode_of(fifo))) << "the FIFO was replaced";
}

// Through links in a temporary directory: a weft that renamed over the path it was given (as
// it once did) replaces the link, not /dev/null or /dev/stdout of the machine running the
// tests as root.
TEST(CliOutput, DevNullAndStdoutAreWrittenThroughNotReplaced) {
  TempDir dir;
  const std::string null = dir.path() + "/null", out = dir.path() + "/stdout";
  ASSERT_EQ(::symlink("/dev/null", null.c_str()), 0);
  ASSERT_EQ(::symlink("/proc/self/fd/1", out.c_str()), 0);
  const auto r = polygon_to("--out", null);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(S_ISLNK(mode_of(null))) << "the link to /dev/null was replaced";
  if (::geteuid() != 0) {  // only root could replace the device itself
    const auto direct = polygon_to("--out", "/dev/null");
    EXPECT_EQ(direct.exit_code, 0) << direct.output;
    EXPECT_TRUE(S_ISCHR(mode_of("/dev/null")));
  }
  // The table goes to stdout first; the JSON written to stdout follows it, both kept.
  const auto s = weft_cmd({"bench", "vadd", "--n", "1000", "--repeat", "1", "--device", "host", "--json", out});
  EXPECT_EQ(s.exit_code, 0) << s.output;
  EXPECT_NE(s.output.find("speed-up"), std::string::npos) << s.output;
  EXPECT_NE(s.output.find("\"suite\": \"vadd\""), std::string::npos) << s.output;
  EXPECT_TRUE(S_ISLNK(mode_of(out))) << "the link to stdout was replaced";
}

TEST(CliOutput, ADirectoryIsRefusedByName) {
  TempDir dir;
  const auto r = polygon_to("--out", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("cannot write " + dir.path() + ": it is a directory"), std::string::npos) << r.output;
  const auto j = weft_cmd({"bench", "vadd", "--n", "1000", "--repeat", "1", "--device", "host", "--json", dir.path()});
  EXPECT_EQ(j.exit_code, 1) << j.output;
  EXPECT_NE(j.output.find("it is a directory"), std::string::npos) << j.output;
}

TEST(CliOutput, ASymlinkToTheUsersFileIsWrittenThroughAndStaysALink) {
  TempDir dir;
  const std::string target = dir.path() + "/real.npy", link = dir.path() + "/link.npy";
  write_file(target, "old");
  ASSERT_EQ(::chmod(target.c_str(), 0604), 0);
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  const auto r = polygon_to("--out", link);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(S_ISLNK(mode_of(link))) << "the link was replaced by a file";
  EXPECT_EQ(mode_of(target) & 07777, 0604u);
  const auto text = read_file(target);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(text->substr(0, 6), "\x93NUMPY");
}

TEST(CliOutput, ADanglingSymlinkOrOneToADirectoryIsRefused) {
  TempDir dir;
  const std::string dangling = dir.path() + "/dangling", to_dir = dir.path() + "/to_dir";
  ASSERT_EQ(::symlink((dir.path() + "/nowhere").c_str(), dangling.c_str()), 0);
  ASSERT_EQ(::symlink(dir.path().c_str(), to_dir.c_str()), 0);
  const auto r = polygon_to("--out", dangling);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("symlink to nothing"), std::string::npos) << r.output;
  EXPECT_FALSE(read_file(dir.path() + "/nowhere").has_value()) << "the link's target was created";
  const auto d = polygon_to("--png", to_dir);
  EXPECT_EQ(d.exit_code, 1) << d.output;
  EXPECT_NE(d.output.find("it is a directory"), std::string::npos) << d.output;
}

// Files of another user: only root can make them here.
TEST(CliOutput, AnotherUsersFileIsNeverReachedThroughALinkAndKeepsItsOwnerWhenNamed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user";
  TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  const uid_t other = 4242;
  const std::string theirs = dir.path() + "/theirs.npy", link = dir.path() + "/link.npy";
  write_file(theirs, "theirs");
  ASSERT_EQ(::chown(theirs.c_str(), other, other), 0);
  ASSERT_EQ(::chmod(theirs.c_str(), 0664), 0);
  ASSERT_EQ(::symlink(theirs.c_str(), link.c_str()), 0);
  const auto r = polygon_to("--out", link);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("symlink to a file owned by another user"), std::string::npos) << r.output;
  EXPECT_EQ(read_file(theirs), std::optional<std::string>("theirs"));
  // Named directly (the user may write it): written in place, owner and mode kept.
  const auto direct = polygon_to("--out", theirs);
  ASSERT_EQ(direct.exit_code, 0) << direct.output;
  struct stat st {};
  ASSERT_EQ(::stat(theirs.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, other);
  EXPECT_EQ(st.st_mode & 07777, 0664u);
  EXPECT_EQ(read_file(theirs)->substr(0, 6), "\x93NUMPY");
  // A link that belongs to another user is not followed even to the user's own file.
  const std::string mine = dir.path() + "/mine.npy", planted = dir.path() + "/planted.npy";
  write_file(mine, "mine");
  ASSERT_EQ(::symlink(mine.c_str(), planted.c_str()), 0);
  ASSERT_EQ(::lchown(planted.c_str(), other, other), 0);
  const auto p = polygon_to("--out", planted);
  EXPECT_EQ(p.exit_code, 1) << p.output;
  EXPECT_NE(p.output.find("symlink owned by another user"), std::string::npos) << p.output;
  EXPECT_EQ(read_file(mine), std::optional<std::string>("mine"));
}

// --- Input files: --vertices-file reads safely ---

TEST(CliInput, AFifoWithoutAWriterOrDevZeroDoesNotHang) {
  TempDir dir;
  const std::string fifo = dir.path() + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string weft = test::program_path("WEFT_TEST_CLI", WEFT_CLI);
  // `timeout` turns a hang into exit 124 instead of a stuck test run.
  const auto f = run_process({"timeout", "60", weft, "polygon", "--size", "8x8", "--vertices-file", fifo});
  EXPECT_EQ(f.exit_code, 1) << f.output;
  EXPECT_NE(f.output.find("holds no vertices"), std::string::npos) << f.output;
  const auto z = run_process({"timeout", "60", weft, "polygon", "--size", "8x8", "--vertices-file", "/dev/zero"});
  EXPECT_EQ(z.exit_code, 1) << z.output;
  EXPECT_NE(z.output.find("--vertices-file: cannot read /dev/zero: it is not a regular file or a pipe"),
            std::string::npos)
      << z.output;
}

TEST(CliInput, AVerticesFileOverTheCapIsRefusedBeforeItIsRead) {
  TempDir dir;
  const std::string big = dir.path() + "/big.txt";
  const int fd = ::open(big.c_str(), O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, off_t{300} << 20), 0);  // sparse: no disk used
  ::close(fd);
  const auto r = weft_cmd({"polygon", "--size", "8x8", "--vertices-file", big});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("more than the 256 MiB accepted"), std::string::npos) << r.output;
}

// --- Absurd numbers: usage errors that name the option and what it accepts ---

struct BadNumber {
  std::vector<std::string> args;
  std::string expected;  // in the message
};

TEST(CliNumbers, AbsurdCountsAreUsageErrorsNamingTheOption) {
  TempDir cache;
  const std::string env = "WEFT_CACHE_DIR=" + cache.path();
  const std::vector<BadNumber> cases{
      {{"polygon", "--size", "8x8", "--vertices", "1e15"},
       "--vertices needs a whole number from 1 to 268435456 (2^28) (written as 1000, 1e6 or 2^20), got '1e15'"},
      {{"polygon", "--size", "8x8", "--vertices", "-3"}, "--vertices needs a whole number from 1 to"},
      {{"polygon", "--size", "8x8", "--vertices", "2^64"}, "got '2^64'"},
      {{"bench", "vadd", "--repeat", "2^40"},
       "--repeat needs a whole number from 1 to 1000000 (written as 1000, 1e6 or 2^20), got '2^40'"},
      {{"bench", "vadd", "--warmup", "abc"}, "--warmup needs a whole number from 0 to 1000000"},
      {{"bench", "vadd", "--n", "0"}, "--n needs a whole number from 1 to 1099511627776 (2^40)"},
      {{"bench", "vadd", "--n", "1.5"}, "got '1.5'"},
      {{"bench", "vadd", "--n", "99999999999999999999999"}, "--n needs a whole number"},
      {{"polygon", "--size", "0x5", "--vertices", "3"},
       "--size needs WIDTHxHEIGHT, each a whole number from 1 to 1073741824 (2^30) (e.g. 1024x768), got '0x5'"},
      {{"polygon", "--size", "99999999x99999999", "--vertices", "3"},
       "--size 99999999x99999999 (9999999800000001 pixels) needs 9094.9 TiB of memory; this machine has"},
      {{"polygon", "--size", "8x8", "--vertices", "3", "--seed", "-1"},
       "--seed needs a whole number of at least 0, got '-1'"},
      {{"polygon", "--size", "8x8", "--vertices", "3", "--seed", "18446744073709551616"}, "--seed needs"},
      {{"cache", "prune", "--older-than", "abc"}, "--older-than needs a number from 0 to 36500, got 'abc'"},
      {{"cache", "prune", "--older-than", "nan"}, "--older-than needs a number"},
      {{"cache", "prune", "--max-size", "-5"}, "--max-size needs a number from 0 to"},
      {{"cache", "prune", "--max-size"}, "--max-size needs a value"},
      {{"bench", "--frobnicate"}, "unknown option '--frobnicate'"},
  };
  for (const auto& c : cases) {
    const auto r = weft_cmd(c.args, env);
    std::string cmd;
    for (const auto& a : c.args) cmd += a + " ";
    EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expected), std::string::npos) << cmd << "\n" << r.output;
    EXPECT_EQ(r.output.find("stoi"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("stod"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("stoull"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("std::"), std::string::npos) << r.output;
  }
}

TEST(CliNumbers, WellFormedCountsAreAccepted) {
  TempDir cache;
  const std::string env = "WEFT_CACHE_DIR=" + cache.path();
  EXPECT_EQ(weft_cmd({"bench", "vadd", "--n", "2^10", "--repeat", "1e0", "--warmup", "0", "--device", "host"}).exit_code,
            0);
  EXPECT_EQ(weft_cmd({"cache", "prune", "--older-than", "0.5", "--max-size", "1e3"}, env).exit_code, 0);
  const auto r = weft_cmd({"polygon", "--size", "8x8", "--vertices", "1e1", "--seed", "18446744073709551615",
                           "--device", "host"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("10 vertices"), std::string::npos) << r.output;
}

// --- Help: weft --help and each command's --help (issue 32) ---

// The "--flag" names listed in a help page's options section.
std::vector<std::string> listed_flags(const std::string& page) {
  std::vector<std::string> flags;
  std::istringstream in(page.substr(page.find("\noptions:\n")));
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  while (std::getline(in, line) && !line.empty()) {
    const auto start = line.find("--");
    if (start != std::string::npos) flags.push_back(line.substr(start, line.find(' ', start) - start));
  }
  return flags;
}

TEST(CliHelp, TheOverviewNamesEveryCommandWithAnExample) {
  for (const char* form : {"--help", "-h", "help"}) {
    const auto r = weft_cmd({form});
    ASSERT_EQ(r.exit_code, 0) << form << ": " << r.output;
    EXPECT_EQ(r.output.rfind("usage: weft <command>", 0), 0u) << r.output;
    for (const char* cmd : {"version", "devices", "cache", "bench", "polygon", "help"}) {
      EXPECT_NE(r.output.find(std::string("\n  ") + cmd + " "), std::string::npos) << cmd << " in " << r.output;
      EXPECT_NE(r.output.find(std::string("\n  weft ") + cmd), std::string::npos) << cmd << "'s example";
    }
  }
  // No command at all: the same text, on the error stream, as a usage error.
  const auto none = weft_cmd({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.output.find("usage: weft <command>"), std::string::npos) << none.output;
}

TEST(CliHelp, EachCommandsHelpListsItsOptionsOneALineWithExamples) {
  for (const char* cmd : {"version", "devices", "calibrate", "cache", "bench", "polygon", "help"}) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{cmd, "--help"}, std::vector<std::string>{cmd, "-h"},
          std::vector<std::string>{"help", cmd}}) {
      const auto r = weft_cmd(args);
      ASSERT_EQ(r.exit_code, 0) << cmd << ": " << r.output;
      EXPECT_EQ(r.output.rfind(std::string("usage: weft ") + cmd, 0), 0u) << r.output;
      EXPECT_NE(r.output.find(std::string("examples:\n  weft ")), std::string::npos) << r.output;
      std::istringstream in(r.output);
      for (std::string line; std::getline(in, line);) EXPECT_LE(line.size(), 100u) << line;
    }
  }
  // --help wins wherever it stands, and does no work.
  const auto late = weft_cmd({"polygon", "--size", "8x8", "--help"});
  EXPECT_EQ(late.exit_code, 0);
  EXPECT_EQ(late.output.find("polygon:"), std::string::npos) << late.output;
  const auto unknown = weft_cmd({"help", "frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("frobnicate"), std::string::npos) << unknown.output;
}

TEST(CliHelp, EveryListedOptionIsOneTheCommandTakes) {
  // An option that needs a value says so; one the parser does not know is "unknown option".
  for (const char* cmd : {"bench", "polygon"}) {
    const auto page = weft_cmd({cmd, "--help"}).output;
    const auto flags = listed_flags(page);
    EXPECT_GE(flags.size(), 5u) << page;
    for (const auto& flag : flags) {
      if (flag == "--help" || flag == "--compare") continue;
      const auto r = weft_cmd({cmd, flag});
      EXPECT_NE(r.exit_code, 0) << cmd << " " << flag;
      EXPECT_EQ(r.output.find("unknown option"), std::string::npos) << cmd << " " << flag << ": " << r.output;
    }
  }
  EXPECT_EQ(listed_flags(weft_cmd({"devices", "--help"}).output),
            std::vector<std::string>({"--json", "--costs", "--help"}));
  EXPECT_EQ(listed_flags(weft_cmd({"calibrate", "--help"}).output),
            std::vector<std::string>({"--quick", "--device", "--json", "--help"}));
  const auto bench = weft_cmd({"bench", "--help"}).output;
  for (const char* suite : {"\n  vadd ", "\n  polygon ", "\n  reduce "}) {
    EXPECT_NE(bench.find(suite), std::string::npos) << suite << " missing from " << bench;
  }
}

}  // namespace
}  // namespace weft::tool
