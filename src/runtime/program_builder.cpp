#include "runtime/program_builder.hpp"

#include <algorithm>

#include "cache/include_digest.hpp"
#include "core/log.hpp"
#include "runtime/background_builds.hpp"
#include "weft/version.hpp"

namespace weft::detail {

Digest ProgramBuilder::key_of(const std::vector<std::string>& flags, std::string_view source,
                              std::string_view options) {
  // The prelude (65 KB for CUDA), toolchain and device are hashed on the first build only.
  std::call_once(base_once_, [&] {
    Hasher base;
    base.update(compiler_.backend()).update(WEFT_VERSION_STRING);
    compiler_.hash_device(base);
    base_ = base;
    device_hashes_.fetch_add(1, std::memory_order_relaxed);
  });
  Hasher h = base_;
  for (const auto& f : flags) h.update(f);
  // Checked and unchecked translations differ; keys of the default (off) are as before.
  if (bounds_check_enabled()) h.update("WEFT_BOUNDS_CHECK=1");
  h.update(source);
  hash_includes(h, source, options);
  return h.finish();
}

Digest ProgramBuilder::key(std::string_view source, std::string_view options) {
  return key_of(compiler_.map_options(options), source, options);
}

CompiledProgram ProgramBuilder::compile(const Digest& key, const TranslatedSource& translated,
                                        const std::vector<std::string>& flags, std::string_view source) {
  WEFT_LOG_DEBUG("compiling " << compiler_.backend() << " program " << key.hex() << " (" << translated.description()
                              << ")");
  compiles_.fetch_add(1, std::memory_order_relaxed);
  return compiler_.compile(translated, flags, source);
}

std::shared_ptr<ProgramImpl> ProgramBuilder::build(std::string_view source, std::string_view options) {
  const std::vector<std::string> flags = compiler_.map_options(options);
  const Digest key = key_of(flags, source, options);
  if (auto p = programs_.find(key)) {
    WEFT_LOG_DEBUG("program cache hit (memory): " << compiler_.backend() << "/" << key.hex());
    return p;
  }
  std::unique_ptr<TranslatedSource> translated = compiler_.translate(source, options);
  translations_.fetch_add(1, std::memory_order_relaxed);
  if (auto p = start_prebuilt(key, translated, flags, source)) return p;
  const std::string& description = translated->description();

  std::shared_ptr<ProgramImpl> program;
  bool from_disk = false;
  const std::string payload = ProgramCache::instance().load_or_build(
      compiler_.backend(), key, description,
      [&] {
        CompiledProgram compiled = compile(key, *translated, flags, source);
        program = std::move(compiled.program);
        return std::move(compiled.payload);
      },
      &from_disk);
  if (!program) {
    try {
      program = compiler_.load(payload, *translated, flags);
    } catch (const PayloadRefused& e) {
      // A cached payload that passed its checksum but will not load (built by another
      // toolchain or driver state) or lacks a kernel (built from another source): rebuilt
      // once rather than failed. A payload just compiled would only fail again.
      if (!from_disk) throw;
      WEFT_LOG_WARNING("cached " << compiler_.backend() << " program " << key.hex() << " does not load (" << e.what()
                                 << "); rebuilding");
      CompiledProgram fresh = compile(key, *translated, flags, source);
      ProgramCache::instance().store(compiler_.backend(), key, description, fresh.payload);
      program = fresh.program ? std::move(fresh.program) : compiler_.load(fresh.payload, *translated, flags);
    }
  }
  return programs_.insert(key, std::move(program));
}

std::shared_ptr<ProgramImpl> ProgramBuilder::start_prebuilt(const Digest& key, std::unique_ptr<TranslatedSource>& translated,
                                                            const std::vector<std::string>& flags,
                                                            std::string_view source) {
  std::optional<std::string> quick = compiler_.prebuilt(source, flags);
  if (!quick) return nullptr;
  // The program's own build, when a process before this one made it, is better still.
  if (ProgramCache::instance().load(compiler_.backend(), key)) return nullptr;
  std::shared_ptr<ProgramImpl> program;
  try {
    program = compiler_.load(*quick, *translated, flags);
  } catch (const PayloadRefused& e) {
    WEFT_LOG_WARNING("prebuilt " << compiler_.backend() << " program " << key.hex() << " does not load (" << e.what()
                                 << "); compiling it");
    return nullptr;
  }
  program = programs_.insert(key, std::move(program));
  prebuilt_.fetch_add(1, std::memory_order_relaxed);
  WEFT_LOG_DEBUG(compiler_.backend() << " program " << key.hex() << " (" << translated->description()
                                     << ") starts prebuilt");
  return program;
}

bool ProgramBuilder::ready(std::string_view source, std::string_view options) {
  const std::vector<std::string> flags = compiler_.map_options(options);
  const Digest key = key_of(flags, source, options);
  if (programs_.find(key)) return true;
  if (compiler_.prebuilt(source, flags)) return true;
  return ProgramCache::instance().load(compiler_.backend(), key).has_value();
}

void ProgramBuilder::build_in_background(std::string_view source, std::string_view options) {
  const Digest k = key(source, options);
  {
    std::lock_guard lock(pending_mutex_);
    if (std::find(pending_.begin(), pending_.end(), k) != pending_.end()) return;
    pending_.push_back(k);
  }
  BackgroundBuilds::instance().submit(
      [this, k, text = std::string(source), opts = std::string(options)] {
        struct Done {
          ProgramBuilder& b;
          Digest digest;
          ~Done() {
            std::lock_guard lock(b.pending_mutex_);
            std::erase(b.pending_, digest);
          }
        } done{*this, k};
        build(text, opts);
      },
      true);
}

ProgramBuilder::Counts ProgramBuilder::counts() const noexcept {
  Counts c;
  c.device_hashes = device_hashes_.load(std::memory_order_relaxed);
  c.translations = translations_.load(std::memory_order_relaxed);
  c.compiles = compiles_.load(std::memory_order_relaxed);
  c.prebuilt = prebuilt_.load(std::memory_order_relaxed);
  return c;
}

}  // namespace weft::detail
