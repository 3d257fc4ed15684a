#include "weft/reduction.hpp"

#include "embedded/weft_embedded.hpp"
#include "kernels/generators/choices.hpp"
#include "kernels/generators/device_style.hpp"
#include "kernels/generators/ordered.hpp"

#include <string_view>

namespace weft {

ReductionKernel::ReductionKernel(DType out, std::string_view neutral, std::string_view reduce_expr,
                                 std::string_view map_expr, std::string_view arguments, std::string_view preamble,
                                 std::string_view name, std::string_view options)
    : out_(out), specs_(parse_arguments(arguments)), who_("ReductionKernel '" + std::string(name) + "'"),
      options_(options) {
  auto blank = [](std::string_view s) { return s.find_first_not_of(" \t\n") == std::string_view::npos; };
  if (blank(neutral)) throw InvalidArgument(who_ + ": the neutral element is empty");
  if (blank(reduce_expr)) throw InvalidArgument(who_ + ": the reduce expression is empty");
  if (blank(map_expr)) throw InvalidArgument(who_ + ": the map expression is empty");
  if (out == DType::float16) throw Unsupported(who_ + ": float16 results are not supported");
  bool n_taken = false;
  for (const auto& s : specs_) n_taken |= s.name == "n";
  // Two variants of the same reduction: chunked loops for the host backend, work-groups with
  // a local-memory tree elsewhere. Each is a whole program; a device builds the one it runs.
  const std::vector<std::pair<std::string, std::string>> values{{"PREAMBLE", std::string(preamble)},
                                     {"OUT", std::string(c_name(out))},
                                     {"REDUCE", std::string(reduce_expr)},
                                     {"MAP", std::string(map_expr)},
                                     {"NEUTRAL", std::string(neutral)},
                                     {"ARGS", detail::parameter_list(specs_)},
                                     {"NAMES", detail::name_list(specs_)},
      {"N", n_taken ? "weft_n" : "n"}};
  const std::string head = detail::substitute(weft::embedded::reduction_cl, values);
  host_ = std::make_shared<detail::GeneratedSource>(head + detail::substitute(weft::embedded::reduction_host_cl, values));
  // A map that reads an array of the result's type as it is (`x[i]`) lets CUDA devices read
  // it 16 bytes at a time (reduction_groups.cl).
  const std::string array = detail::direct_array(map_expr, specs_, out);
  direct_ = !array.empty();
  groups_ = std::make_shared<detail::GeneratedSource>(
      std::string(weft::embedded::ptx_opencl_cl) +
      (array.empty() ? std::string() : "#define WEFT_REDUCE_SOURCE " + array + "\n") + head +
      detail::substitute(weft::embedded::reduction_groups_cl, values));
}

void ReductionKernel::throw_type_mismatch(std::string_view given) const {
  throw InvalidArgument(who_ + " reduces to " + std::string(name(out_)) + "; reduce<T> was asked for " +
                        std::string(given));
}

ReductionKernel::Kernels& ReductionKernel::kernels_for(const Device& device) {
  std::lock_guard lock(mutex_);
  for (auto& k : kernels_) {
    if (k->device == device.impl().get()) return *k;
  }
  const auto& style = detail::device_style(device);
  // Tests may choose the one-launch reduction on any device with work-groups (an OpenCL CPU
  // device, whose memory is coherent), or two launches where it would be fused.
  using Choices = detail::GeneratorChoices;
  const Choices::ReduceAlgorithm chosen = detail::generator_choices().reduce_algorithm;
  bool fused = style.device_fences;
  if (!style.host && chosen != Choices::ReduceAlgorithm::automatic) fused = chosen == Choices::ReduceAlgorithm::fused;
  const bool groups = !style.chunked || fused;
  // Reading an array 16 bytes at a time on NVIDIA GPUs: within 32 registers per work-item the planned
  // eight work-groups of 256 share a multiprocessor (34 unbounded, which holds six); a cap
  // that makes the kernel spill is dropped.
  const std::size_t cap = direct_ && groups && style.ptx ? 32 : 0;
  const char* first = fused ? "weft_reduce_fused" : "weft_reduce_partial";
  Program p = (groups ? groups_ : host_)->program_within_cap(device, options_ + style.options, cap, first);
  auto k = std::make_unique<Kernels>();
  k->device = device.impl().get();
  k->partial = p.kernel("weft_reduce_partial");
  k->finish = p.kernel("weft_reduce_finish");
  if (fused) k->fused = p.kernel("weft_reduce_fused");
  // Work-groups beyond what a compute unit runs at once would make a second, partial wave (a
  // kernel of more registers than planned, say): launch() stays within both.
  if (groups) {
    k->resident = (fused ? k->fused : k->partial).resident_groups_per_unit(style.group, style.group * size_of(out_));
  }
  kernels_.push_back(std::move(k));
  return *kernels_.back();
}

Event ReductionKernel::reduce_into(Queue& queue, std::size_t n, const Buffer& result,
                                   std::span<const detail::RuntimeArg> args) {
  if (!result || result.size() < size_of(out_)) {
    throw InvalidArgument(who_ + ": the result buffer must hold one " + std::string(name(out_)));
  }
  Kernels& k = kernels_for(queue.device());
  KernelArgs call(k.fused ? k.fused : k.partial);
  detail::bind_runtime_args(call, specs_, who_, args);
  return launch(queue, k, call, n, result);
}

Event ReductionKernel::launch(Queue& queue, Kernels& k, KernelArgs& call, std::size_t n, const Buffer& result) {
  const Device dev = queue.device();
  const auto& style = detail::device_style(dev);
  const std::size_t units = std::max(1u, dev.info().compute_units);
  // How many partials: enough work-groups (chunks on the host) to fill the device, never
  // more than there are elements to share.
  const std::size_t per_unit = k.resident ? std::min(k.resident, style.groups_per_unit) : style.groups_per_unit;
  std::size_t groups = units * per_unit;
  const std::size_t per_group = style.chunked ? 4096 : style.group * style.items;
  groups = std::max<std::size_t>(1, std::min(groups, (n + per_group - 1) / per_group));

  // The scratch buffers of a queue are shared by its calls (its order keeps them apart); the
  // lock covers finding them and enqueuing, so that calls from several threads do not mix.
  std::lock_guard lock(k.mutex);
  detail::Ordered ordered(queue);
  Scratch* scratch = nullptr;
  for (auto& [q, b] : k.scratch) {
    if (q == queue.impl().get()) scratch = &b;
  }
  if (!scratch) {
    Scratch fresh{Buffer(dev, units * style.groups_per_unit, out_), Buffer::of<std::int32_t>(dev, 1)};
    const std::int32_t zero = 0;
    ordered(queue.fill(fresh.ticket, &zero, 4, 0, 4, ordered.wait()));
    k.scratch.emplace_back(queue.impl().get(), std::move(fresh));
    scratch = &k.scratch.back().second;
  }
  const Buffer& partial = scratch->partials;
  const std::size_t nargs = specs_.size();
  const std::size_t elem = size_of(out_);
  if (k.fused) {
    call.set(nargs, static_cast<std::int64_t>(n)).set(nargs + 1, partial).set(nargs + 2, result);
    call.set(nargs + 3, scratch->ticket).set(nargs + 4, LocalMemory{style.group * elem});
    return queue.launch(call, groups * style.group, style.group, {}, ordered.wait());
  }
  call.set(nargs, static_cast<std::int64_t>(n)).set(nargs + 1, partial);
  KernelArgs finish(k.finish);
  finish.set(0, partial).set(1, static_cast<std::int64_t>(groups)).set(2, result);
  if (style.chunked) {
    const std::size_t chunk = (n + groups - 1) / groups;
    call.set(nargs + 2, static_cast<std::int64_t>(chunk));
    // Local size 1: each chunk is a unit of work the host spreads over its threads.
    ordered(queue.launch(call, groups, 1, {}, ordered.wait()));
    return queue.launch(finish, 1, {}, {}, ordered.wait());
  }
  call.set(nargs + 2, LocalMemory{style.group * elem});
  finish.set(3, LocalMemory{style.group * elem});
  ordered(queue.launch(call, groups * style.group, style.group, {}, ordered.wait()));
  return queue.launch(finish, style.group, style.group, {}, ordered.wait());
}

}  // namespace weft
