#include "weft/scan.hpp"

#include "embedded/weft_embedded.hpp"
#include "kernels/generators/choices.hpp"
#include "kernels/generators/device_style.hpp"
#include "kernels/generators/ordered.hpp"
#include "weft/error.hpp"

#include <algorithm>

namespace weft {
namespace {
// Elements per work-item in a single-pass tile (the tile is the work-group size times this),
// and the register cap on NVIDIA devices (0: none). Tuned on an H200 with float32 2^26
// (the git history of docs/PERFORMANCE.md): tiles copied asynchronously, 32 items uncapped (188 us; 24 items
// 224 us, any cap 245-295 us); loaded through registers, 24 items under a cap of 40 registers
// (6 work-groups of 256 per SM; 225 us, 32 items uncapped 248 us). With a warp of its own
// looking back (288 work-items), 32 registers keep the 6 work-groups that local memory holds
// per SM (40, the compiler's choice, would leave room for 5). 8-byte values: 12 items (the
// tile's local memory stays under 48 KiB for OpenCL devices), no cap; copied asynchronously
// (CUDA, which gives a work-group more local memory), 32 items: 349-353 us for 2^26 float64
// or int64 on an H200 against 515-520 with 12, when a tile's prefix still took two dependent
// reads (git history of bench/lab); fewer, larger tiles pay there.
std::size_t default_scan_items(DType t, bool async) { return async ? 32 : (size_of(t) <= 4 ? 24 : 12); }
std::size_t default_scan_registers(DType t, bool async, bool helper) {
  if (size_of(t) > 4) return 0;
  return async ? (helper ? 32 : 0) : 40;
}
}  // namespace

GenericScanKernel::GenericScanKernel(DType dtype, std::string_view arguments, std::string_view input_expr,
                                     std::string_view scan_expr, std::string_view neutral,
                                     std::string_view output_statement, std::string_view is_segment_start_expr,
                                     std::string_view preamble, std::string_view name, std::string_view options)
    : dtype_(dtype), specs_(parse_arguments(arguments)), who_("scan kernel '" + std::string(name) + "'"),
      options_(options) {
  auto blank = [](std::string_view s) { return s.find_first_not_of(" \t\n;") == std::string_view::npos; };
  if (blank(input_expr)) throw InvalidArgument(who_ + ": the input expression is empty");
  if (blank(scan_expr)) throw InvalidArgument(who_ + ": the scan expression is empty");
  if (blank(neutral)) throw InvalidArgument(who_ + ": the neutral element is empty");
  if (blank(output_statement)) throw InvalidArgument(who_ + ": the output statement is empty");
  if (dtype == DType::float16) throw Unsupported(who_ + ": float16 scans are not supported");
  bool n_taken = false, big_n_taken = false;
  for (const auto& s : specs_) {
    n_taken |= s.name == "n";
    big_n_taken |= s.name == "N";
  }
  const bool segmented = !blank(is_segment_start_expr);
  // PyOpenCL's scans call the element count N (its copy_if writes `if (i+1 == N) *count = item;`):
  // N is n here too, unless an argument or the preamble has the name.
  const std::string count_name = n_taken ? "weft_n" : "n";
  const std::string pyopencl_n = big_n_taken ? "" : "\n#ifndef N\n#define N " + count_name + "\n#endif\n";
  const std::vector<std::pair<std::string, std::string>> values{
      {"PREAMBLE", std::string(preamble) + pyopencl_n},
      {"T", std::string(c_name(dtype))},
      {"SCAN", std::string(scan_expr)},
      {"INPUT", std::string(input_expr)},
      {"SEGMENT", segmented ? std::string(is_segment_start_expr) : "0"},
      {"NEUTRAL", std::string(neutral)},
      {"OUTPUT", std::string(output_statement)},
      {"ARGS", detail::parameter_list(specs_)},
      {"NAMES", detail::name_list(specs_)},
      {"N", count_name},
      // The single pass packs values of 4 bytes or less into the tiles' status words.
      {"PACKED", size_of(dtype) <= 4 ? "1" : "0"},
      // The value's bits in a status word (4-byte values) or beside it (8-byte, CUDA).
      {"TO_BITS", size_of(dtype) > 4 ? (dtype == DType::float64 ? "as_ulong(v)" : "(ulong)(v)")
                                     : (dtype == DType::float32 ? "as_uint(v)" : "(uint)(v)")},
      {"FROM_BITS", dtype == DType::float32 ? "as_float(b)" : dtype == DType::float64 ? "as_double(b)" : "(weft_scan_t)(b)"}};
  const std::string head = "#define WEFT_SEGMENTED " + std::string(segmented ? "1" : "0") + "\n" +
                           detail::substitute(weft::embedded::scan_cl, values);
  chunked_ = std::make_shared<detail::GeneratedSource>(head + detail::substitute(weft::embedded::scan_chunked_cl, values));
  // The single pass is for GPUs; segmented scans stay chunked everywhere.
  if (!segmented) {
    const std::string array = detail::direct_array(input_expr, specs_, dtype);
    const std::string dest = detail::direct_store(output_statement, specs_, dtype);
    direct_ = !array.empty();
    lookback_ = std::make_shared<detail::GeneratedSource>(
        std::string(weft::embedded::ptx_opencl_cl) + head + "#ifndef WEFT_SCAN_ITEMS\n#define WEFT_SCAN_ITEMS " + std::to_string(default_scan_items(dtype, false)) +
        "\n#endif\n" + (direct_ ? "#define WEFT_SCAN_SOURCE " + array + "\n" : "") +
        (dest.empty() ? "" : "#define WEFT_SCAN_DEST " + dest + "\n") +
        detail::substitute(weft::embedded::scan_lookback_cl, values));
  }
}

GenericScanKernel::Kernels& GenericScanKernel::kernels_for(const Device& device) {
  std::lock_guard lock(mutex_);
  for (auto& k : kernels_) {
    if (k->device == device.impl().get()) return *k;
  }
  const auto& style = detail::device_style(device);
  // Tests may choose the algorithm (detail::GeneratorChoices: the GPU algorithm on an OpenCL
  // CPU device); the host backend takes the chunked one. On GPUs without a device-scope fence
  // (OpenCL) the single pass still works for values of 4 bytes or less: they travel inside the
  // tiles' 64-bit status words, so nothing has to be ordered between two words.
  using Choices = detail::GeneratorChoices;
  const Choices choices = detail::generator_choices();
  const bool gpu = !style.chunked && !style.host;
  bool single = lookback_ && (style.device_fences || (gpu && size_of(dtype_) <= 4));
  if (lookback_ && !style.host) {
    if (choices.scan_algorithm == Choices::ScanAlgorithm::single_pass) single = true;
    else if (choices.scan_algorithm == Choices::ScanAlgorithm::chunked) single = false;
  }
  if (!single) {
    Program p = chunked_->program(device, options_ + style.options);
    auto k = std::make_unique<Kernels>();
    k->device = device.impl().get();
    k->single_pass = false;
    k->items = 0;
    k->group = 0;
    k->pad = 1;
    k->helpers = 0;
    k->partial = p.kernel("weft_scan_partial");
    k->carry = p.kernel("weft_scan_carry");
    k->final_pass = p.kernel("weft_scan_final");
    kernels_.push_back(std::move(k));
    return *kernels_.back();
  }
  // Tiles of an input `x[i]` are copied asynchronously where the device can.
  const bool async = direct_ && style.copies_async;
  // A tile is `group` work-items of `items` elements each.
  std::size_t items = default_scan_items(dtype_, async);
  const std::size_t group = style.group;
  // The tile and the work-group's other local memory must fit the device's local memory
  // (on CUDA the most a work-group may ask for, more than the default 48 KiB).
  const std::uint64_t local_limit = device.info().local_mem_bytes;
  // On NVIDIA GPUs (CUDA, or OpenCL through PTX) tiles go in work-group order, as CUB's
  // look-back takes them: the hardware starts blocks in index order, through either API, and
  // a work-group then need not wait for a ticket before its copies (H200: 3% faster).
  // Elsewhere, and where tests choose tickets, an atomic counter hands tiles out in the order
  // work-groups start, whatever the hardware does.
  const bool group_order = style.ptx && choices.scan_tickets != Choices::Toggle::on;
  // The tiles the look-back reads per round. With 4-byte tiles copied asynchronously half a
  // warp's width (one warp looking back alone) read 1% faster than a warp's, and that 2-3%
  // faster than the work-group's, on an H200; 8 tiles as fast as 32, 4 and 2 slower. 8-byte
  // values (3 tiles of 32 items per SM) look back a warp's width, by the first warp: 293-294 us
  // for 2^26 float64 or int64 against 291-303 at the work-group's width and 308-316 at 16 tiles
  // by a warp of its own.
  const std::size_t window = async ? std::min<std::size_t>(size_of(dtype_) <= 4 ? 16 : 32, group) : group;
  // On NVIDIA GPUs a window of at most a warp is looked back by a warp of its own, from the
  // work-group's start, beside the `group` work-items that copy and scan the tile (or, where
  // tests choose, by the first of them, after the tile's copy). H200: 146 against 151 us;
  // idling 32-128 ns between rounds that meet no prefix, 145.5.
  const bool own_warp = choices.scan_lookback_warp == Choices::Toggle::automatic
                            ? size_of(dtype_) <= 4
                            : choices.scan_lookback_warp == Choices::Toggle::on;
  const bool helper = style.ptx && window <= 32 && group + 32 <= 1024 && own_warp;
  const std::size_t sleep = helper ? 64 : 0;
  // 8-byte values on NVIDIA GPUs travel beside their status word, both in one 16-byte access
  // (or, where tests choose, are published before it, behind a fence, and read after it).
  const bool status16 = style.ptx && size_of(dtype_) == 8 && choices.scan_status16 != Choices::Toggle::off;
  // Each work-group asks L2 for the tile that many tiles ahead of its own, so that tile's
  // copies find it there, where one instruction prefetches a tile. H200: 161 us at a quarter
  // to one tile per multiprocessor ahead against 181 without, two or more tiles ahead thrash
  // L2; with the look-back warp one tile per multiprocessor ahead is best (144.6 us; half
  // 145.6, a quarter 147.5).
  const std::size_t units = std::max<std::size_t>(1, device.info().compute_units);
  const std::size_t prefetch =
      choices.scan_prefetch >= 0 ? static_cast<std::size_t>(choices.scan_prefetch)
      : async && style.prefetches_bulk ? std::max<std::size_t>(1, helper ? units : units / 2)
                                       : 0;
  auto local_bytes = [&](std::size_t it) {  // runs of 32 four-byte items copied in may take 4 words of padding
    const std::size_t pad = async && size_of(dtype_) == 4 && it == 32 ? 4 : 1;
    return (group * it + group * it / 32 * pad) * size_of(dtype_) + group * (size_of(dtype_) + 4) + 64;
  };
  while (local_limit && items > 1 && local_bytes(items) > local_limit) items /= 2;
  // Runs of 32 four-byte items copied asynchronously are padded to 36 words in local memory
  // and move 16 bytes at a time.
  const bool wide = async && size_of(dtype_) == 4 && items == 32;
  // The registers per work-item are capped on NVIDIA devices (more work-groups per
  // multiprocessor, to overlap one tile's look-back with others' loads) unless the cap makes
  // the kernel spill: then it is built without (int32 sums through CUDA spill 8 bytes under
  // 32 registers; H200, 2^26: 151.6-151.7 us capped, 149.5-149.7 uncapped).
  const std::size_t registers = default_scan_registers(dtype_, async, helper);
  // Tests may have tiles publish only their aggregates: every look-back then folds back to
  // the first tile, over several windows.
  const std::string test_mode =
      choices.scan_aggregates_only == Choices::Toggle::on ? " -D WEFT_SCAN_AGGREGATES_ONLY=1" : "";
  Program p = lookback_->program_within_cap(device, options_ + style.options + " -D WEFT_SCAN_ITEMS=" + std::to_string(items) +
                                             " -D WEFT_SCAN_GROUP=" + std::to_string(group) + test_mode +
                                             " -D WEFT_SCAN_WINDOW=" + std::to_string(window) +
                                             " -D WEFT_SCAN_COPY_ASYNC=" + (async ? "1" : "0") +
                                             " -D WEFT_SCAN_PREFETCH=" + std::to_string(prefetch) +
                                             " -D WEFT_SCAN_WIDE=" + (wide ? "1" : "0") +
                                             " -D WEFT_SCAN_GROUP_ORDER=" + (group_order ? "1" : "0") +
                                             " -D WEFT_SCAN_LOOKBACK_WARP=" + (helper ? "1" : "0") +
                                             " -D WEFT_SCAN_SLEEP=" + std::to_string(sleep) +
                                             " -D WEFT_SCAN_STATUS16=" + (status16 ? "1" : "0"),
                                             registers, "weft_scan_lookback");
  auto k = std::make_unique<Kernels>();
  k->device = device.impl().get();
  k->single_pass = true;
  k->items = items;
  k->group = group;
  k->pad = wide ? 4u : 1u;
  k->helpers = helper ? 32u : 0u;
  k->partial = p.kernel("weft_scan_lookback");
  kernels_.push_back(std::move(k));
  return *kernels_.back();
}

Event GenericScanKernel::launch(Queue& queue, Kernels& k, KernelArgs& call, std::size_t n) {
  if (n == 0) return queue.marker();
  // A queue's scratch (and its epoch and tile count) is shared by its calls: the lock covers
  // finding it, updating it and enqueuing, so that calls from several threads do not mix.
  std::lock_guard lock(k.mutex);
  detail::Ordered ordered(queue);
  const Device dev = queue.device();
  const auto& style = detail::device_style(dev);
  const std::size_t nargs = specs_.size();
  const auto n64 = static_cast<std::int64_t>(n);
  const std::size_t units = std::max(1u, dev.info().compute_units);
  const std::size_t tile = k.group * k.items;
  const std::size_t slots = k.single_pass ? (n + tile - 1) / tile
                                          : units * style.groups_per_unit * (style.chunked ? 1 : style.group);
  Scratch* scratch = nullptr;
  for (auto& [q, s] : k.scratch) {
    if (q == queue.impl().get() && s.values.count() >= slots) scratch = &s;
  }
  if (!scratch) {
    // Status words: four per tile for 8-byte values (with PTX a pair for the aggregate and a
    // pair for the prefix, each word holding half the value).
    const std::size_t words = k.single_pass && size_of(dtype_) == 8 ? 4 * slots : slots;
    Scratch s{Buffer(dev, slots, dtype_), Buffer::of<std::int64_t>(dev, words),
              Buffer(dev, k.single_pass ? slots : 1, dtype_), Buffer::of<std::int32_t>(dev, 1)};
    k.scratch.emplace_back(queue.impl().get(), std::move(s));
    scratch = &k.scratch.back().second;
    if (k.single_pass) {
      const std::int32_t zero = 0;
      ordered(queue.fill(scratch->flags, &zero, 4, 0, scratch->flags.count() * 8, ordered.wait()));
      ordered(queue.fill(scratch->counter, &zero, 4, 0, 4, ordered.wait()));
    }
  }
  if (k.single_pass) {
    // No clearing between calls: status words name their call (the epoch), and tiles are
    // counted from the counter's value before the call. The words are cleared once per 2^30
    // calls, when the epoch (30 bits in the word) starts again.
    if (++scratch->epoch == (1u << 30)) {
      const std::int32_t zero = 0;
      ordered(queue.fill(scratch->flags, &zero, 4, 0, scratch->flags.count() * 8, ordered.wait()));
      scratch->epoch = 1;
    }
    const std::uint32_t tile_base = scratch->tiles_started;
    scratch->tiles_started += static_cast<std::uint32_t>(slots);  // wraps as the device's counter does
    call.set(nargs, n64).set(nargs + 1, scratch->flags).set(nargs + 2, scratch->values);
    call.set(nargs + 3, scratch->prefixes).set(nargs + 4, scratch->counter);
    call.set(nargs + 5, tile_base).set(nargs + 6, scratch->epoch);
    // Runs padded for 16-byte accesses take 16 bytes more, to start on a 16-byte boundary.
    call.set(nargs + 7, LocalMemory{(tile + tile / 32 * k.pad) * size_of(dtype_) + (k.pad == 4 ? 16 : 0)});
    const std::size_t local = k.group + k.helpers;
    return queue.launch(call, slots * local, local, {}, ordered.wait());
  }
  // Chunks: a few per compute unit (each a contiguous range for one work-item), never
  // smaller than least elements: 4096 on the host backend, where each chunk is a task on its
  // pool and a few tasks cost the pool's wake-up without the work to pay for it (H200 host,
  // 16 threads, cumsum of float32 resident there, medians of 200, two processes: 3000
  // elements 34-54 us in three chunks of 1024 against 9.5-11 in one; 10^4 31-36 against 21-23;
  // 65536 40-45 against 24-26; 10^5 42-47 against 28-31; 10^6 116-121 against 114-126; 8192
  // and more were slower from 10^4 up), 1024 elsewhere.
  const std::size_t least = style.host ? 4096 : 1024;
  const std::size_t chunks = std::max<std::size_t>(1, std::min(slots, (n + least - 1) / least));
  const std::size_t chunk = (n + chunks - 1) / chunks;
  const auto chunk64 = static_cast<std::int64_t>(chunk);
  KernelArgs carry(k.carry);
  KernelArgs final_pass(k.final_pass);
  detail::copy_user_args(call, final_pass, nargs);
  call.set(nargs, n64).set(nargs + 1, scratch->values).set(nargs + 2, scratch->flags);
  call.set(nargs + 3, chunk64);
  carry.set_all(scratch->values, scratch->flags, static_cast<std::int64_t>(chunks));
  final_pass.set(nargs, n64).set(nargs + 1, scratch->values).set(nargs + 2, chunk64);
  // Local size 1 on CPUs: each chunk is a unit of work spread over the threads.
  const NDRange local = style.chunked ? NDRange(1) : NDRange();
  ordered(queue.launch(call, chunks, local, {}, ordered.wait()));
  ordered(queue.launch(carry, 1, NDRange(1), {}, ordered.wait()));
  return queue.launch(final_pass, chunks, local, {}, ordered.wait());
}

InclusiveScanKernel::InclusiveScanKernel(DType dtype, std::string_view scan_expr, std::string_view neutral,
                                         std::string_view preamble)
    : scan_(dtype, "const " + std::string(c_name(dtype)) + " *weft_in, " + std::string(c_name(dtype)) + " *weft_out",
            "weft_in[i]", scan_expr, neutral, "weft_out[i] = item", {}, preamble, "inclusive_scan") {}

ExclusiveScanKernel::ExclusiveScanKernel(DType dtype, std::string_view scan_expr, std::string_view neutral,
                                         std::string_view preamble)
    : scan_(dtype, "const " + std::string(c_name(dtype)) + " *weft_in, " + std::string(c_name(dtype)) + " *weft_out",
            "weft_in[i]", scan_expr, neutral, "weft_out[i] = prev_item", {}, preamble, "exclusive_scan") {}

}  // namespace weft
