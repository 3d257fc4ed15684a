#include "host_prebuilt_batch.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <string_view>
#include <thread>

#include "backends/host/host_compiler.hpp"
#include "backends/host/host_prebuilt.hpp"
#include "backends/host/host_prelude_header.hpp"
#include "dialect/prelude.hpp"

namespace weft::detail {

namespace {

// The translation's first line (dialect/host_translate.cpp).
const std::string& include_line() {
  static const std::string line = "#include \"" + std::string(host_prelude_file) + "\"\n";
  return line;
}
constexpr std::string_view namespace_open = "namespace weft_kernel {\n";
constexpr std::string_view namespace_close = "}  // namespace weft_kernel\n";
constexpr std::string_view launchers = "#line 1 \"weft-launchers\"\n";

// The name a `#define` or `#undef` line names, or "".
std::string_view directive_name(std::string_view line, std::string_view directive) {
  std::size_t at = line.find_first_not_of(" \t");
  if (at == std::string_view::npos || line.substr(at, directive.size()) != directive) return {};
  at = line.find_first_not_of(" \t", at + directive.size());
  if (at == std::string_view::npos) return {};
  const std::size_t end = line.find_first_of(" \t(", at);
  return line.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
}

template <class F>
void for_each_line(std::string_view text, F f) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    f(text.substr(at, nl - at));
    at = nl + 1;
  }
}

// The prelude's `#define` line of each macro it defines (the first).
const std::map<std::string, std::string, std::less<>>& prelude_defines() {
  static const std::map<std::string, std::string, std::less<>> defines = [] {
    std::map<std::string, std::string, std::less<>> out;
    for_each_line(host_prelude_text(), [&](std::string_view line) {
      const std::string_view name = directive_name(line, "#define");
      if (!name.empty()) out.emplace(std::string(name), std::string(line));
    });
    return out;
  }();
  return defines;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

std::optional<std::string> batch_part(const std::string& translation, bool first) {
  const std::string_view t = translation;
  if (t.substr(0, include_line().size()) != include_line()) return std::nullopt;
  const std::size_t open = t.find(namespace_open);
  const std::size_t close = open == std::string_view::npos ? open : t.find(namespace_close, open);
  const std::size_t launch = close == std::string_view::npos ? close : t.find(launchers, close);
  if (launch == std::string_view::npos) return std::nullopt;
  const std::string infix = HostPrebuilt::batch_infix(translation);
  std::string out;
  std::string tail(t.substr(launch));
  if (!first) {
    // The keyword macros of the prelude that the launchers of the program before undefined.
    for_each_line(tail, [&](std::string_view line) {
      const std::string_view name = directive_name(line, "#undef");
      const auto it = name.empty() ? prelude_defines().end() : prelude_defines().find(name);
      if (it != prelude_defines().end()) out += it->second + "\n";
    });
  }
  out += t.substr(include_line().size(), open - include_line().size());
  out += "namespace weft_kernel { namespace " + infix + " {\n";
  out += t.substr(open + namespace_open.size(), close - open - namespace_open.size());
  out += "} }  // namespace weft_kernel\n";
  replace_all(tail, "::weft_kernel::", "::weft_kernel::" + infix + "::");
  for (const char* entry : {" weft_run_", " weft_info_", " weft_groups_"}) {
    replace_all(tail, entry, std::string(entry) + infix + "_");
  }
  out += tail;
  out += "\n";
  // The program's own macros (its build options' -D, its source's #define) end with it.
  for_each_line(t.substr(include_line().size()), [&](std::string_view line) {
    const std::string_view name = directive_name(line, "#define");
    if (!name.empty()) out += "#undef " + std::string(name) + "\n";
  });
  return out;
}

std::vector<BatchResult> compile_batches(const HostToolchain& tc, const std::vector<BatchProgram>& programs,
                                         unsigned parallel, std::size_t per_batch) {
  std::vector<BatchResult> results(programs.size());
  // Batches of programs with the same command line, in their order: the same flags but for
  // -D (the translation defines those, not the command line: compile_host_module).
  std::map<std::vector<std::string>, std::vector<std::size_t>> by_flags;
  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t i = 0; i < programs.size(); ++i) {
    if (batch_part(programs[i].translation, false)) {
      std::vector<std::string> command;
      for (const auto& f : programs[i].flags) {
        if (f.rfind("-D", 0) != 0) command.push_back(f);
      }
      by_flags[command].push_back(i);
    } else {
      batches.push_back({i});
    }
  }
  parallel = std::max(parallel, 1u);
  for (const auto& [flags, members] : by_flags) {
    // Enough batches to keep every compile slot busy, none larger than per_batch.
    const std::size_t count = std::max((members.size() + per_batch - 1) / per_batch,
                                       std::min<std::size_t>(parallel, (members.size() + 3) / 4));
    for (std::size_t b = 0; b < count; ++b) {
      std::vector<std::size_t> batch;
      for (std::size_t k = b; k < members.size(); k += count) batch.push_back(members[k]);
      batches.push_back(std::move(batch));
    }
  }
  PreludeHeaders& headers = PreludeHeaders::instance();
  const auto alone = [&](std::size_t i) {
    try {
      results[i].image = compile_host_module(tc, programs[i].translation, programs[i].flags, programs[i].source, headers);
    } catch (...) {
      results[i].error = std::current_exception();
    }
  };
  const auto build = [&](const std::vector<std::size_t>& batch) {
    if (batch.size() == 1) return alone(batch[0]);
    std::string unit(include_line());
    for (std::size_t k = 0; k < batch.size(); ++k) unit += *batch_part(programs[batch[k]].translation, k == 0);
    try {
      const std::string image = compile_host_module(tc, unit, programs[batch[0]].flags, "", headers);
      for (std::size_t i : batch) results[i].image = image;
    } catch (...) {
      // One program that does not build fails its batch: each is built alone, for its own error.
      for (std::size_t i : batch) alone(i);
    }
  };
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t k = next++; k < batches.size(); k = next++) build(batches[k]);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < parallel; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return results;
}

}  // namespace weft::detail
