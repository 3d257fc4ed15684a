#include "weft/scan.hpp"

#include "embedded/weft_embedded.hpp"
#include "kernels/generators/device_style.hpp"
#include "weft/error.hpp"

namespace weft {

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
  bool n_taken = false;
  for (const auto& s : specs_) n_taken |= s.name == "n";
  const bool segmented = !blank(is_segment_start_expr);
  const std::string source =
      "#define WEFT_SEGMENTED " + std::string(segmented ? "1" : "0") + "\n" +
      detail::substitute(weft::embedded::scan_cl, {{"PREAMBLE", std::string(preamble)},
                                                   {"T", std::string(c_name(dtype))},
                                                   {"SCAN", std::string(scan_expr)},
                                                   {"INPUT", std::string(input_expr)},
                                                   {"SEGMENT", segmented ? std::string(is_segment_start_expr) : "0"},
                                                   {"NEUTRAL", std::string(neutral)},
                                                   {"OUTPUT", std::string(output_statement)},
                                                   {"ARGS", detail::parameter_list(specs_)},
                                                   {"NAMES", detail::name_list(specs_)},
                                                   {"N", n_taken ? "weft_n" : "n"}});
  generated_ = std::make_shared<detail::GeneratedSource>(source);
}

GenericScanKernel::Kernels& GenericScanKernel::kernels_for(const Device& device) {
  for (auto& k : kernels_) {
    if (k->device == device.impl().get()) return *k;
  }
  const auto style = detail::device_style(device);
  Program p = generated_->program(device, options_ + style.options);
  kernels_.push_back(std::make_unique<Kernels>(Kernels{device.impl().get(), p.kernel("weft_scan_partial"),
                                                       p.kernel("weft_scan_carry"), p.kernel("weft_scan_final"), {}}));
  return *kernels_.back();
}

Event GenericScanKernel::launch(Queue& queue, Kernels& k, std::size_t n) {
  if (n == 0) return queue.marker();
  const Device dev = queue.device();
  const auto style = detail::device_style(dev);
  const std::size_t units = std::max(1u, dev.info().compute_units);
  // Chunks: a few per compute unit (each a contiguous range for one work-item), never
  // smaller than 1024 elements.
  const std::size_t max_chunks = units * style.groups_per_unit * (style.chunked ? 1 : style.group);
  const std::size_t chunks = std::max<std::size_t>(1, std::min(max_chunks, (n + 1023) / 1024));
  const std::size_t chunk = (n + chunks - 1) / chunks;

  std::pair<Buffer, Buffer>* scratch = nullptr;
  for (auto& [q, s] : k.scratch) {
    if (q == queue.impl().get() && s.first.count() >= chunks) scratch = &s;
  }
  if (!scratch) {
    k.scratch.emplace_back(queue.impl().get(),
                           std::make_pair(Buffer(dev, max_chunks, dtype_), Buffer::of<std::int32_t>(dev, max_chunks)));
    scratch = &k.scratch.back().second;
  }
  const std::size_t nargs = specs_.size();
  const auto n64 = static_cast<std::int64_t>(n);
  const auto chunk64 = static_cast<std::int64_t>(chunk);
  k.partial.set_arg(nargs, n64).set_arg(nargs + 1, scratch->first).set_arg(nargs + 2, scratch->second);
  k.partial.set_arg(nargs + 3, chunk64);
  k.carry.set_args(scratch->first, scratch->second, static_cast<std::int64_t>(chunks));
  k.final_pass.set_arg(nargs, n64).set_arg(nargs + 1, scratch->first).set_arg(nargs + 2, chunk64);
  // Local size 1 on CPUs: each chunk is a unit of work spread over the threads.
  const NDRange local = style.chunked ? NDRange(1) : NDRange();
  queue.launch(k.partial, chunks, local);
  queue.launch(k.carry, 1, NDRange(1));
  return queue.launch(k.final_pass, chunks, local);
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
