#include "kernels/generators/choices.hpp"

#include <atomic>
#include <charconv>
#include <mutex>
#include <string>

#include "weft/error.hpp"

namespace weft::detail {

namespace {
struct Store {
  std::mutex mutex;
  GeneratorChoices choices;        // under mutex
  std::atomic<bool> set{false};    // whether choices differ from the defaults
};

Store& store() {
  static Store s;
  return s;
}

template <class E>
E parse(std::string_view name, std::string_view value, std::initializer_list<std::pair<std::string_view, E>> accepted) {
  std::string list;
  for (const auto& [text, e] : accepted) {
    if (value == text) return e;
    list += (list.empty() ? "" : ", ") + std::string(text);
  }
  throw InvalidArgument("generator choice " + std::string(name) + "='" + std::string(value) + "': expected one of " +
                        list);
}

GeneratorChoices::Toggle toggle(std::string_view name, std::string_view value) {
  using T = GeneratorChoices::Toggle;
  return parse<T>(name, value, {{"auto", T::automatic}, {"on", T::on}, {"off", T::off}});
}
}  // namespace

GeneratorChoices generator_choices() {
  Store& s = store();
  if (!s.set.load(std::memory_order_acquire)) return {};
  std::lock_guard lock(s.mutex);
  return s.choices;
}

void set_generator_choices(const GeneratorChoices& choices) {
  Store& s = store();
  std::lock_guard lock(s.mutex);
  s.choices = choices;
  s.set.store(!(choices == GeneratorChoices{}), std::memory_order_release);
}

void set_generator_choice(std::string_view name, std::string_view value) {
  using C = GeneratorChoices;
  Store& s = store();
  std::lock_guard lock(s.mutex);  // one choice changed, the others kept, whoever sets at once
  C c = s.choices;
  if (name == "scan_algorithm") {
    c.scan_algorithm = parse<C::ScanAlgorithm>(name, value, {{"auto", C::ScanAlgorithm::automatic},
                                                             {"single-pass", C::ScanAlgorithm::single_pass},
                                                             {"chunked", C::ScanAlgorithm::chunked}});
  } else if (name == "scan_aggregates_only") {
    c.scan_aggregates_only = toggle(name, value);
  } else if (name == "scan_tickets") {
    c.scan_tickets = toggle(name, value);
  } else if (name == "scan_lookback_warp") {
    c.scan_lookback_warp = toggle(name, value);
  } else if (name == "scan_status16") {
    c.scan_status16 = toggle(name, value);
  } else if (name == "scan_prefetch") {
    int tiles = -1;
    if (value != "auto") {
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), tiles);
      if (ec != std::errc() || end != value.data() + value.size() || tiles < 0 || tiles > 4096) {
        throw InvalidArgument("generator choice scan_prefetch='" + std::string(value) +
                              "': expected auto or a whole number of tiles from 0 to 4096");
      }
    }
    c.scan_prefetch = tiles;
  } else if (name == "reduce_algorithm") {
    c.reduce_algorithm = parse<C::ReduceAlgorithm>(name, value, {{"auto", C::ReduceAlgorithm::automatic},
                                                                 {"fused", C::ReduceAlgorithm::fused},
                                                                 {"two-pass", C::ReduceAlgorithm::two_pass}});
  } else if (name == "reduce_split") {
    c.reduce_split = parse<C::ReduceSplit>(
        name, value, {{"auto", C::ReduceSplit::automatic}, {"always", C::ReduceSplit::always}, {"never", C::ReduceSplit::never}});
  } else {
    throw InvalidArgument("unknown generator choice '" + std::string(name) +
                          "'; choices: scan_algorithm, scan_aggregates_only, scan_tickets, scan_lookback_warp, "
                          "scan_status16, scan_prefetch, reduce_algorithm, reduce_split");
  }
  s.choices = c;
  s.set.store(!(c == C{}), std::memory_order_release);
}

}  // namespace weft::detail
