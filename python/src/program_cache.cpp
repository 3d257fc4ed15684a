// The on-disk program cache for Python (weft.cache: info, entries, clear, prune), through the
// public API of include/weft/program_cache.hpp, as the `weft cache` command uses it.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "common.hpp"
#include "weft/program_cache.hpp"

namespace weftpy {

void register_cache(nb::module_& m) {
  m.def("_cache_directory", [] { return weft::cache_directory(); }, "The program cache's directory.");
  m.def("_cache_entries", [] {
    nb::typed<nb::list, AnyDict> out;
    for (const weft::CacheEntry& e : weft::list_cache_entries()) {
      AnyDict d;
      d["path"] = e.path;
      d["backend"] = e.backend;
      d["key"] = e.key;
      d["description"] = e.description;
      d["weft_version"] = e.weft_version;
      d["bytes"] = e.bytes;
      d["modified"] = e.modified;
      d["valid"] = e.valid;
      d["problem"] = e.problem;
      out.append(d);
    }
    return out;
  }, "Every entry of the program cache, valid or not.");
  m.def("_cache_clear", [] {
    nb::gil_scoped_release unlocked;
    return weft::clear_cache();
  }, "Removes every entry; returns how many.");
  m.def("_cache_prune", [](std::optional<double> max_age_s, std::optional<std::uint64_t> max_bytes) {
    std::optional<std::chrono::seconds> age;
    if (max_age_s) {
      if (!(*max_age_s >= 0)) throw weft::InvalidArgument("cache.prune: max_age_s must be a number of seconds >= 0");
      age = std::chrono::seconds(static_cast<std::int64_t>(*max_age_s));
    }
    nb::gil_scoped_release unlocked;
    return weft::prune_cache(age, max_bytes);
  }, nb::arg("max_age_s").none(), nb::arg("max_bytes").none(), "Trims the cache; returns how many entries went.");
  m.def("_cache_load_record", [](std::string_view folder, std::string_view key_text) -> std::optional<nb::bytes> {
    std::optional<std::string> payload;
    {
      nb::gil_scoped_release unlocked;
      payload = weft::load_cache_record(folder, key_text);
    }
    if (!payload) return std::nullopt;
    return nb::bytes(payload->data(), payload->size());
  }, nb::arg("folder"), nb::arg("key_text"), "A record kept beside the programs, or None (weft/program_cache.hpp).");
  m.def("_cache_store_record", [](std::string_view folder, std::string_view key_text, std::string_view description,
                                  nb::bytes payload) {
    const std::string_view bytes(payload.c_str(), payload.size());
    nb::gil_scoped_release unlocked;
    return weft::store_cache_record(folder, key_text, description, bytes);
  }, nb::arg("folder"), nb::arg("key_text"), nb::arg("description"), nb::arg("payload"),
     "Stores a record beside the programs; False when the cache cannot be written.");
}

}  // namespace weftpy
