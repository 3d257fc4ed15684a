#include <gtest/gtest.h>

#include <pwd.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <map>

#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft {
namespace {

Config parse(std::map<std::string, std::string> env) {
  return Config::parse([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

std::string error_of(std::map<std::string, std::string> env) {
  try {
    parse(std::move(env));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, Defaults) {
  const Config c = parse({{"HOME", "/home/u"}});
  EXPECT_EQ(c.device.kind(), DeviceSelector::Kind::automatic);
  EXPECT_TRUE(c.backends.empty());
  EXPECT_EQ(c.cache_dir, "/home/u/.cache/weft");
  EXPECT_GE(c.num_threads, 1u);
  EXPECT_EQ(c.cxx, "c++");
  EXPECT_EQ(c.log_level, LogLevel::warning);
  EXPECT_EQ(parse({{"HOME", "/h"}, {"XDG_CACHE_HOME", "/x"}}).cache_dir, "/x/weft");
  EXPECT_EQ(parse({{"HOME", "/h"}, {"WEFT_CACHE_DIR", "/c"}}).cache_dir, "/c");
}

TEST(Config, HostThreadsLeaveTheCallerACoreWhereThePoolPolls) {
  // The CPUs this process may run on, less one from four up (below four the pool's threads
  // sleep rather than poll, and every CPU works).
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const auto cpus = static_cast<unsigned>(CPU_COUNT(&set));
  EXPECT_EQ(parse({{"HOME", "/h"}}).num_threads, cpus >= 4 ? cpus - 1 : cpus);
  EXPECT_EQ(parse({{"HOME", "/h"}, {"WEFT_NUM_THREADS", "16"}}).num_threads, 16u);
}

TEST(Config, ValuesAreRead) {
  const Config c = parse({{"WEFT_DEVICE", "opencl:1:2"}, {"WEFT_BACKENDS", "host, opencl:cpu"},
                          {"WEFT_NUM_THREADS", "3"}, {"WEFT_CXX", "clang++"}, {"WEFT_LOG", "debug"}});
  EXPECT_EQ(c.device.kind(), DeviceSelector::Kind::opencl_index);
  EXPECT_EQ(c.device.platform(), 1);
  EXPECT_EQ(c.device.index(), 2);
  ASSERT_EQ(c.backends.size(), 2u);
  EXPECT_TRUE(c.backend_allowed("host"));
  EXPECT_TRUE(c.backend_allowed("opencl"));
  EXPECT_FALSE(c.backend_allowed("cuda"));
  EXPECT_TRUE(c.device_allowed("opencl", DeviceType::cpu));
  EXPECT_FALSE(c.device_allowed("opencl", DeviceType::gpu));
  EXPECT_EQ(c.num_threads, 3u);
  EXPECT_EQ(c.cxx, "clang++");
  EXPECT_EQ(c.log_level, LogLevel::debug);
}

TEST(Config, MalformedValuesNameTheVariable) {
  const std::string dev = error_of({{"WEFT_DEVICE", "nonsense"}});
  EXPECT_NE(dev.find("WEFT_DEVICE"), std::string::npos) << dev;
  EXPECT_NE(dev.find("nonsense"), std::string::npos) << dev;
  for (const char* form : {"host", "opencl:gpu", "opencl:P:D", "cuda:N", "auto"}) {
    EXPECT_NE(dev.find(form), std::string::npos) << "missing " << form << " in: " << dev;
  }
  EXPECT_NE(error_of({{"WEFT_NUM_THREADS", "0"}}).find("WEFT_NUM_THREADS"), std::string::npos);
  EXPECT_NE(error_of({{"WEFT_NUM_THREADS", "two"}}).find("'two'"), std::string::npos);
  EXPECT_NE(error_of({{"WEFT_LOG", "loud"}}).find("WEFT_LOG"), std::string::npos);
  EXPECT_NE(error_of({{"WEFT_BACKENDS", "host,vulkan"}}).find("vulkan"), std::string::npos);
  EXPECT_FALSE(error_of({{"WEFT_DEVICE", "cuda:x"}}).empty());
  EXPECT_FALSE(error_of({{"WEFT_DEVICE", "opencl:1:"}}).empty());
  EXPECT_FALSE(error_of({{"WEFT_DEVICE", "opencl:1:2:3"}}).empty());
  EXPECT_FALSE(error_of({{"WEFT_DEVICE", "host:3"}}).empty());
}

TEST(Config, MemoryLimitTakesSizesWithUnits) {
  EXPECT_EQ(parse({}).memory_limit, 0u);
  EXPECT_EQ(parse({{"WEFT_MEMORY_LIMIT", "100"}}).memory_limit, 100u);
  EXPECT_EQ(parse({{"WEFT_MEMORY_LIMIT", "512M"}}).memory_limit, 512u << 20);
  EXPECT_EQ(parse({{"WEFT_MEMORY_LIMIT", "512MB"}}).memory_limit, 512u << 20);
  EXPECT_EQ(parse({{"WEFT_MEMORY_LIMIT", " 1.5GiB "}}).memory_limit, 3ull << 29);
  EXPECT_EQ(parse({{"WEFT_MEMORY_LIMIT", "64k"}}).memory_limit, 64u << 10);
  EXPECT_EQ(parse({{"WEFT_MEMORY_LIMIT", "2T"}}).memory_limit, 2ull << 40);
  EXPECT_EQ(parse({{"WEFT_MEMORY_LIMIT", "4096B"}}).memory_limit, 4096u);
  for (const char* bad : {"lots", "0", "-5", "12X", "1.2.3G", "G", "0.1"}) {
    const std::string e = error_of({{"WEFT_MEMORY_LIMIT", bad}});
    EXPECT_NE(e.find("WEFT_MEMORY_LIMIT='" + std::string(bad) + "'"), std::string::npos) << bad << ": " << e;
  }
}

Config parse_with_home(std::map<std::string, std::string> env, std::string home) {
  return Config::parse(
      [&](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      [&] { return home; });
}

TEST(Config, CacheDirectoryIsNeverASharedPath) {
  // Without HOME or XDG_CACHE_HOME: the password database's home, else no disk cache at
  // all, never a /tmp name another user could have made first.
  EXPECT_EQ(parse_with_home({}, "/home/pw").cache_dir, "/home/pw/.cache/weft");
  EXPECT_EQ(parse_with_home({}, "").cache_dir, "");
  EXPECT_EQ(parse_with_home({}, "relative").cache_dir, "");
  EXPECT_EQ(parse_with_home({{"HOME", ""}}, "/home/pw").cache_dir, "/home/pw/.cache/weft");
  EXPECT_EQ(parse_with_home({{"XDG_CACHE_HOME", "not/absolute"}, {"HOME", "/h"}}, "").cache_dir, "/h/.cache/weft");
  EXPECT_EQ(parse_with_home({{"WEFT_CACHE_DIR", "/c"}}, "").cache_dir, "/c");
  // The default lookup, for the user running the tests.
  const std::string dflt = parse({}).cache_dir;
  EXPECT_EQ(dflt.find("/tmp"), std::string::npos) << dflt;
  if (struct passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_dir && pw->pw_dir[0] == '/') {
    EXPECT_EQ(dflt, std::string(pw->pw_dir) + "/.cache/weft");
  }
}

TEST(Config, TempDirIsAnAbsoluteTmpdir) {
  EXPECT_EQ(parse({}).temp_dir, "/tmp");
  EXPECT_EQ(parse({{"TMPDIR", ""}}).temp_dir, "/tmp");
  EXPECT_EQ(parse({{"TMPDIR", "/scratch/u/"}}).temp_dir, "/scratch/u");
  const std::string e = error_of({{"TMPDIR", "tmp"}});
  EXPECT_NE(e.find("TMPDIR='tmp'"), std::string::npos) << e;
  EXPECT_NE(e.find("absolute"), std::string::npos) << e;
}

TEST(Config, CacheLockTimeoutInSeconds) {
  using std::chrono::milliseconds;
  EXPECT_EQ(parse({}).cache_lock_timeout, milliseconds(60000));
  EXPECT_EQ(parse({{"WEFT_CACHE_LOCK_TIMEOUT", "5"}}).cache_lock_timeout, milliseconds(5000));
  EXPECT_EQ(parse({{"WEFT_CACHE_LOCK_TIMEOUT", " 0.25 "}}).cache_lock_timeout, milliseconds(250));
  EXPECT_EQ(parse({{"WEFT_CACHE_LOCK_TIMEOUT", "0"}}).cache_lock_timeout, milliseconds(0));
  for (const char* bad : {"soon", "-1", "1e3", "90000", "inf", "nan", "5s"}) {
    const std::string e = error_of({{"WEFT_CACHE_LOCK_TIMEOUT", bad}});
    EXPECT_NE(e.find("WEFT_CACHE_LOCK_TIMEOUT='" + std::string(bad) + "'"), std::string::npos) << bad << ": " << e;
  }
}

TEST(Config, OpenclPtxIsASwitch) {
  EXPECT_TRUE(parse({}).opencl_ptx);
  EXPECT_TRUE(parse({}).host_pch);
  for (const char* off : {"0", "off", " off "}) EXPECT_FALSE(parse({{"WEFT_HOST_PCH", off}}).host_pch) << off;
  EXPECT_TRUE(parse({{"WEFT_HOST_PCH", "on"}}).host_pch);
  EXPECT_TRUE(parse({}).host_prebuilt);
  for (const char* off : {"0", "off", " off "}) EXPECT_FALSE(parse({{"WEFT_HOST_PREBUILT", off}}).host_prebuilt) << off;
  EXPECT_TRUE(parse({{"WEFT_HOST_PREBUILT", "1"}}).host_prebuilt);
  EXPECT_NE(error_of({{"WEFT_HOST_PCH", "yes"}}).find("WEFT_HOST_PCH='yes'"), std::string::npos);
  EXPECT_FALSE(parse({}).placement_learn);
  for (const char* on : {"1", "on", " on "}) EXPECT_TRUE(parse({{"WEFT_PLACEMENT_LEARN", on}}).placement_learn) << on;
  EXPECT_FALSE(parse({{"WEFT_PLACEMENT_LEARN", "off"}}).placement_learn);
  EXPECT_FALSE(parse({{"WEFT_PLACEMENT_LEARN", "0"}}).placement_learn);
  EXPECT_NE(error_of({{"WEFT_PLACEMENT_LEARN", "yes"}}).find("WEFT_PLACEMENT_LEARN='yes'"), std::string::npos);
  EXPECT_TRUE(parse({}).placement_chains);
  for (const char* off : {"0", "off", " off "}) {
    EXPECT_FALSE(parse({{"WEFT_PLACEMENT_CHAINS", off}}).placement_chains) << off;
  }
  EXPECT_TRUE(parse({{"WEFT_PLACEMENT_CHAINS", "on"}}).placement_chains);
  EXPECT_NE(error_of({{"WEFT_PLACEMENT_CHAINS", "2"}}).find("WEFT_PLACEMENT_CHAINS='2'"), std::string::npos);
  EXPECT_FALSE(parse({}).bounds_check);
  for (const char* on : {"1", "on", " on "}) EXPECT_TRUE(parse({{"WEFT_BOUNDS_CHECK", on}}).bounds_check) << on;
  EXPECT_FALSE(parse({{"WEFT_BOUNDS_CHECK", "0"}}).bounds_check);
  EXPECT_NE(error_of({{"WEFT_BOUNDS_CHECK", "yes"}}).find("WEFT_BOUNDS_CHECK='yes'"), std::string::npos);
  for (const char* on : {"1", "on", " on "}) EXPECT_TRUE(parse({{"WEFT_OPENCL_PTX", on}}).opencl_ptx) << on;
  for (const char* off : {"0", "off"}) EXPECT_FALSE(parse({{"WEFT_OPENCL_PTX", off}}).opencl_ptx) << off;
  for (const char* bad : {"yes", "2", "OFF!"}) {
    const std::string e = error_of({{"WEFT_OPENCL_PTX", bad}});
    EXPECT_NE(e.find("WEFT_OPENCL_PTX='" + std::string(bad) + "'"), std::string::npos) << e;
    EXPECT_NE(e.find("0 or off"), std::string::npos) << e;
  }
}

TEST(Config, StagingTakesChunkAndThreads) {
  const Config d = parse({});
  EXPECT_EQ(d.staging_chunk_bytes, 0u);
  EXPECT_EQ(d.staging_threads, 0u);
  const Config c = parse({{"WEFT_STAGING", " 16, 12 "}});
  EXPECT_EQ(c.staging_chunk_bytes, std::size_t{16} << 20);
  EXPECT_EQ(c.staging_threads, 12u);
  for (const char* bad : {"16", "0,4", "16,0", "300,4", "16,65", "x,4", "16,-1", "16,4,2"}) {
    const std::string e = error_of({{"WEFT_STAGING", bad}});
    EXPECT_NE(e.find("WEFT_STAGING='" + std::string(bad) + "'"), std::string::npos) << e;
    EXPECT_NE(e.find("CHUNK_MIB,THREADS"), std::string::npos) << e;
  }
}

TEST(Config, StagingTraceIsASwitch) {
  EXPECT_FALSE(parse({}).staging_trace);
  EXPECT_TRUE(parse({{"WEFT_STAGING_TRACE", " on "}}).staging_trace);
  EXPECT_TRUE(parse({{"WEFT_STAGING_TRACE", "1"}}).staging_trace);
  EXPECT_FALSE(parse({{"WEFT_STAGING_TRACE", "off"}}).staging_trace);
  for (const char* bad : {"yes", "2", "debug"}) {
    const std::string e = error_of({{"WEFT_STAGING_TRACE", bad}});
    EXPECT_NE(e.find("WEFT_STAGING_TRACE='" + std::string(bad) + "'"), std::string::npos) << e;
    EXPECT_NE(e.find("0 or off"), std::string::npos) << e;
  }
}

TEST(Config, PathIsReadForProgramLookups) {
  EXPECT_EQ(parse({{"PATH", "/opt/cc/bin:/usr/bin"}}).path, "/opt/cc/bin:/usr/bin");
  EXPECT_EQ(parse({}).path, "/usr/local/bin:/usr/bin:/bin");
}

TEST(Selector, EveryForm) {
  using K = DeviceSelector::Kind;
  EXPECT_EQ(DeviceSelector::parse("host").kind(), K::host);
  EXPECT_EQ(DeviceSelector::parse("auto").kind(), K::automatic);
  EXPECT_EQ(DeviceSelector::parse("opencl").kind(), K::opencl_any);
  EXPECT_EQ(DeviceSelector::parse("opencl:gpu").type(), DeviceType::gpu);
  EXPECT_EQ(DeviceSelector::parse("opencl:cpu").kind(), K::opencl_type);
  EXPECT_EQ(DeviceSelector::parse("opencl:2").platform(), 2);
  EXPECT_EQ(DeviceSelector::parse("cuda").kind(), K::cuda_any);
  EXPECT_EQ(DeviceSelector::parse("cuda:3").index(), 3);
  EXPECT_EQ(DeviceSelector::parse(" cuda:0 ").backend(), "cuda");
}

TEST(Selector, SubDevicesFollowASlash) {
  const auto s = DeviceSelector::parse("opencl:0:1/2/0");
  EXPECT_EQ(s.kind(), DeviceSelector::Kind::opencl_index);
  EXPECT_EQ(s.index(), 1);
  EXPECT_EQ(s.sub_devices(), (std::vector<int>{2, 0}));
  EXPECT_EQ(s.text(), "opencl:0:1/2/0");
  EXPECT_EQ(DeviceSelector::parse("opencl:cpu/1").sub_devices(), std::vector<int>{1});
  EXPECT_TRUE(DeviceSelector::parse("opencl:0:0").sub_devices().empty());
  for (const char* bad : {"opencl:0:0/", "opencl:0:0/x", "opencl:0:0/-1", "auto/0", "opencl:0:0//1", "/1"}) {
    EXPECT_THROW(DeviceSelector::parse(bad), ConfigError) << bad;
  }
}

}  // namespace
}  // namespace weft
