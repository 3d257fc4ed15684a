// count_bins: generates the histogram kernel of an expression (its value per axis and its
// weights read in one pass, through the array layer's code generation), keeps it by its key
// as every array kernel is kept, and launches the variant the device calls for.
#include "algorithms/histogram_kernel.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "array/array_queue.hpp"
#include "array/codegen.hpp"
#include "array/expr_node.hpp"
#include "array/kernel_cache.hpp"
#include "array/memory_pool.hpp"
#include "array/tree_cutting.hpp"
#include "core/lifetime.hpp"
#include "embedded/weft_embedded.hpp"
#include "kernels/generators/device_style.hpp"
#include "weft/arg_spec.hpp"
#include "weft/detail/generated.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

enum class Variant : std::uint8_t { private_ = 0, local = 1, global = 2 };
// Each variant is a file of its own: the host backend's translation lists every kernel of a
// source, preprocessor or not.
const std::string_view variant_file[] = {embedded::histogram_private_cl, embedded::histogram_local_cl,
                                         embedded::histogram_global_cl};
constexpr const char* variant_kernel[] = {"weft_histogram_private", "weft_histogram_local", "weft_histogram_global"};

// The type bins accumulate in: exact 64-bit integers unless the weights are floating.
DType accumulator(const std::optional<Expr>& weights) {
  return weights && is_floating(weights->dtype()) ? DType::float64 : DType::int64;
}

// The device function that finds x's bin along one axis (-1: outside the edges, or NaN).
std::string bin_function(const BinAxis& a, std::size_t k) {
  const std::string K = std::to_string(k);
  if (a.rule == BinRule::integers) {
    return "long weft_bin_" + K + "(long x, long nb) { return (x >= 0 && x < nb) ? x : -1; }\n";
  }
  const std::string C = kernel_type(a.edges.dtype());
  std::string f = "long weft_bin_" + K + "(" + C + " x, __global const " + C +
                  " *e, long nb, double lo, double scale) {\n"
                  "  if (!(x >= e[0] && x <= e[nb])) return -1;\n"
                  // The last bin holds its right edge.
                  "  if (x == e[nb]) return nb - 1;\n";
  if (a.rule == BinRule::uniform) {
    // The arithmetic guess can be a bin off where x sits within an ulp of an edge; the edges
    // settle it, so the bins are exactly NumPy's [e[k], e[k+1]). A range of subnormal width
    // makes scale infinite and g NaN at x == lo (0 * inf): the guess is then the first bin
    // (a NaN converted to long is undefined; x86 gave LONG_MIN, an index far outside e).
    f += "  const double g = ((double)x - lo) * scale;\n"
         "  long k = !(g > 0.0) ? 0 : g >= (double)(nb - 1) ? nb - 1 : (long)g;\n"
         "  while (k > 0 && x < e[k]) --k;\n"
         "  while (k < nb - 1 && x >= e[k + 1]) ++k;\n"
         "  return k;\n}\n";
  } else {
    f += "  long a = 0, b = nb;\n"  // e[a] <= x < e[b]
         "  while (b - a > 1) { const long m = (a + b) >> 1; if (e[m] <= x) a = m; else b = m; }\n"
         "  return a;\n}\n";
  }
  return f;
}

// The kernel's extra parameters per axis, after the expression's.
std::string axis_params(const BinAxis& a, std::size_t k) {
  const std::string K = std::to_string(k);
  if (a.rule == BinRule::integers) return ", long weft_n" + K;
  return ", const " + kernel_type(a.edges.dtype()) + " *weft_e" + K + ", long weft_n" + K + ", double weft_lo" + K +
         ", double weft_sc" + K;
}
std::string axis_names(const BinAxis& a, std::size_t k) {
  const std::string K = std::to_string(k);
  if (a.rule == BinRule::integers) return ", weft_n" + K;
  return ", weft_e" + K + ", weft_n" + K + ", weft_lo" + K + ", weft_sc" + K;
}

// The generated program: one source per variant, built per device when first launched there.
struct HistogramProgram {
  std::string common;  // everything before the variant's kernel
  std::vector<ArgSpec> specs;
  std::vector<std::pair<std::string, std::string>> values;  // ARGS and NAMES
  std::mutex mutex;
  std::array<std::unique_ptr<GeneratedSource>, 3> sources;

  struct Built {
    const void* device;
    Variant variant;
    Kernel count, merge;
  };
  std::deque<Built> built;  // found by comparing pointers; a deque keeps references handed out

  // The variant's counting and merging kernels on dev, built on first use.
  const Built& kernels(const Device& dev, Variant v) {
    std::lock_guard lock(mutex);
    for (const auto& b : built) {
      if (b.device == dev.impl().get() && b.variant == v) return b;
    }
    auto& s = sources[static_cast<int>(v)];
    if (!s) s = std::make_unique<GeneratedSource>(common + substitute(variant_file[static_cast<int>(v)], values));
    const Program p = s->program(dev, device_style(dev).options);
    built.push_back({dev.impl().get(), v, p.kernel(variant_kernel[static_cast<int>(v)]), p.kernel("weft_histogram_merge")});
    return built.back();
  }
};

// The expression roots in order: each axis's value, then the weights.
std::vector<const ExprNode*> roots_of(const std::vector<BinAxis>& axes, const std::optional<Expr>& weights) {
  std::vector<const ExprNode*> r;
  for (const auto& a : axes) r.push_back(a.value.node().get());
  if (weights) r.push_back(weights->node().get());
  return r;
}

// walk and text_of take their roots as a list written out: a histogram has at most three.
template <class F>
decltype(auto) with_roots(const std::vector<const ExprNode*>& r, F&& f) {
  switch (r.size()) {
    case 1: return f({r[0]});
    case 2: return f({r[0], r[1]});
    case 3: return f({r[0], r[1], r[2]});
    default: throw InvalidArgument("histogram: at most two axes with weights");
  }
}

std::string make_source(const std::vector<BinAxis>& axes, const std::optional<Expr>& weights, const Shape& shape,
                        std::vector<ArgSpec>& specs, std::vector<std::pair<std::string, std::string>>& values) {
  const auto roots = roots_of(axes, weights);
  const Text t = with_roots(roots, [&](std::initializer_list<const ExprNode*> l) { return text_of(shape, nullptr, l); });
  std::string params = t.sig.spec.substr(2), names = t.sig.names.substr(2);
  for (std::size_t k = 0; k < axes.size(); ++k) {
    params += axis_params(axes[k], k);
    names += axis_names(axes[k], k);
  }
  specs = parse_arguments(params);
  std::string args = parameter_list(specs);  // "..., " as the template wants
  const std::string fparams = args.substr(0, args.size() - 2);
  const DType acc = accumulator(weights);
  std::string s = "typedef " + kernel_type(acc) + " weft_acc_t;\n#define WEFT_WEIGHTED " + (weights ? "1" : "0") +
                  "\n#define WEFT_FLOAT_WEIGHTS " + (acc == DType::float64 ? "1" : "0") + "\n" + helpers() +
                  t.sig.functions;
  for (std::size_t k = 0; k < axes.size(); ++k) s += bin_function(axes[k], k);
  // The flat bin: the first axis slowest, as NumPy's histogram2d lays H out.
  s += "long weft_bin(long i, " + fparams + ") {\n" + t.sig.offsets + "\n  long bin = 0;\n";
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const std::string K = std::to_string(k);
    const bool ints = axes[k].rule == BinRule::integers;
    const std::string C = ints ? "long" : kernel_type(axes[k].edges.dtype());
    s += "  { const long b = weft_bin_" + K + "((" + C + ")(" + t.values[k] + ")" +
         (ints ? ", weft_n" + K : ", weft_e" + K + ", weft_n" + K + ", weft_lo" + K + ", weft_sc" + K) +
         "); if (b < 0) return -1; bin = bin * weft_n" + K + " + b; }\n";
  }
  s += "  return bin;\n}\n";
  if (weights) {
    s += "weft_acc_t weft_weight(long i, " + fparams + ") {\n" + t.sig.offsets + "\n  return (weft_acc_t)(" +
         t.values.back() + ");\n}\n";
  }
  values = {{"ARGS", args}, {"NAMES", names}};
  return s + std::string(embedded::histogram_cl);
}

std::string key_of(const std::vector<BinAxis>& axes, const std::optional<Expr>& weights) {
  std::string k = "hist|";
  for (const auto& a : axes) {
    k += static_cast<char>('0' + static_cast<int>(a.rule));
    k += a.rule == BinRule::integers ? "" : std::string(name(a.edges.dtype()));
    k += ',';
  }
  k += weights ? "w|" : "|";
  return k;
}

HistogramProgram& program_for(const std::vector<BinAxis>& axes, const std::optional<Expr>& weights,
                              const Shape& shape, CallKey& call) {
  call << key_of(axes, weights);
  with_roots(roots_of(axes, weights), [&](std::initializer_list<const ExprNode*> l) {
    call.walk(shape, nullptr, l);
    return 0;
  });
  static Immortal<KernelTable<HistogramProgram>> tables;  // never destroyed: core/lifetime.hpp
  auto p = cached<HistogramProgram>(*tables, call.key(), [&] {
    auto made = std::make_shared<HistogramProgram>();
    made->common = make_source(axes, weights, shape, made->specs, made->values);
    return made;
  });
  return *p;  // the table keeps it
}

std::atomic<HistogramVariant> chosen{HistogramVariant::automatic};

Variant variant_for(const Device& dev, std::int64_t nbins, bool weighted) {
  const DeviceCapabilities& caps = dev.capabilities();
  // Half the local memory at most: the device keeps room for the launch and other groups.
  const std::uint64_t bytes = static_cast<std::uint64_t>(nbins) * (weighted ? 8 : 4);
  const bool fits = bytes <= dev.info().local_mem_bytes / 2;
  switch (chosen.load(std::memory_order_relaxed)) {
    case HistogramVariant::private_: return Variant::private_;
    case HistogramVariant::local:
      if (caps.has_barriers && fits) return Variant::local;
      break;
    case HistogramVariant::global: return Variant::global;
    case HistogramVariant::automatic: break;
  }
  // CPUs (the host backend, OpenCL CPU devices) count best in a private histogram per thread:
  // no atomics at all. PoCL's local memory is ordinary memory and its atomics locked
  // instructions: 2^24 floats into 256 bins took 4.3x longer in local memory on the 2-core VM
  // (docs/ALGORITHMS.md).
  if (!caps.has_barriers || device_style(dev).chunked) return Variant::private_;
  return fits ? Variant::local : Variant::global;
}

}  // namespace

ScopedHistogramVariant::ScopedHistogramVariant(HistogramVariant v) : before_(chosen.exchange(v)) {}
ScopedHistogramVariant::~ScopedHistogramVariant() { chosen.store(before_); }

Array count_bins(const std::vector<BinAxis>& given, const std::optional<Expr>& given_weights) {
  if (given.empty()) throw InvalidArgument("histogram: no axis");
  const Shape shape = given[0].value.shape();
  std::vector<BinAxis> axes = given;
  std::int64_t total = 1;
  for (auto& a : axes) {
    if (a.value.shape() != shape) throw InvalidArgument("histogram: the coordinates differ in shape");
    a.value = bounded(a.value, shape);
    if (a.rule != BinRule::integers && (!a.edges.is_contiguous() || a.edges.offset() != 0)) a.edges = a.edges.copy();
    // The bins must fit one allocation of 8-byte counters (bincount of a huge value asks for
    // as many bins): refused before any size computed from them can wrap.
    const Device d = device_of(*a.value.node());
    const auto limit = static_cast<std::int64_t>(std::min<std::uint64_t>(d ? d.info().max_alloc_bytes / 8 : 0, INT64_MAX / 8));
    if (a.nbins < 0 || (a.nbins > 0 && total > limit / a.nbins)) {
      throw InvalidArgument("histogram: " + std::to_string(total) + " x " + std::to_string(a.nbins) +
                            " bins are more than one allocation of the device holds");
    }
    total *= a.nbins;
  }
  std::optional<Expr> weights;
  if (given_weights) weights = bounded(*given_weights, shape);
  const Device dev = device_of(*axes[0].value.node());
  if (!dev) throw InvalidArgument("histogram: the data holds no array");
  for (const auto& a : axes) check_one_device(*a.value.node(), dev);
  if (weights) check_one_device(*weights->node(), dev);
  const DType acc = accumulator(weights);
  const std::int64_t n = shape.size();
  if (total == 0 || n == 0) return Array::zeros(Shape({total}), acc, dev);

  CallKey call;
  HistogramProgram& prog = program_for(axes, weights, shape, call);
  std::vector<RuntimeArg>& args = call.args();
  for (const auto& a : axes) {
    if (a.rule != BinRule::integers) args.push_back(RuntimeArg::of(a.edges.buffer()));
    args.push_back(RuntimeArg::of_value(a.nbins));
    if (a.rule != BinRule::integers) {
      args.push_back(RuntimeArg::of_value(a.lo));
      args.push_back(RuntimeArg::of_value(a.scale));
    }
  }

  const Variant v = variant_for(dev, total, weights.has_value());
  const DeviceStyle& style = device_style(dev);
  const HistogramProgram::Built& kernels = prog.kernels(dev, v);
  KernelArgs main(kernels.count);
  bind_runtime_args(main, prog.specs, "histogram", args);
  const std::size_t p = prog.specs.size();
  Queue& q = detail::array_queue(dev);
  const std::size_t units = std::max(1u, dev.info().compute_units);
  const auto un = static_cast<std::size_t>(n);
  const auto bins = static_cast<std::size_t>(total);

  if (v == Variant::global) {
    Array out = Array::zeros(Shape({total}), acc, dev);
    const std::size_t group = std::min<std::size_t>(style.group, std::max<std::size_t>(dev.info().max_work_group_size, 1));
    const std::size_t groups = std::clamp<std::size_t>((un + group - 1) / group, 1, units * style.groups_per_unit);
    main.set(p, n).set(p + 1, total).set(p + 2, out.buffer());
    q.launch(main, groups * group, group);
    out.mark_written();
    return out;
  }

  std::size_t parts = 0;
  if (v == Variant::private_) {
    // A few chunks per thread, each with its histogram; fewer where the bins are many (the
    // partial histograms stay within 8 Mi bins in all).
    parts = std::min<std::size_t>(units * 4, std::max<std::size_t>((un + 4095) / 4096, 1));
    parts = std::clamp<std::size_t>(std::min(parts, (std::size_t{1} << 23) / bins), 1, parts);
  } else {
    const std::size_t group = std::min<std::size_t>(style.group, std::max<std::size_t>(dev.info().max_work_group_size, 1));
    parts = std::clamp<std::size_t>((un + group - 1) / group, 1, units * style.groups_per_unit);
    parts = std::max(parts, (un >> 31) + 1);  // each group's 32-bit counters stay below 2^31
  }
  Buffer partials = memory_pool(dev).allocate(parts * bins * size_of(acc), acc, [] { return std::string("histogram partials"); });
  if (v == Variant::private_) {
    const std::size_t chunk = (un + parts - 1) / parts;
    main.set(p, n).set(p + 1, total).set(p + 2, static_cast<std::int64_t>(chunk)).set(p + 3, partials);
    q.launch(main, parts, 1);
  } else {
    const std::size_t group = std::min<std::size_t>(style.group, std::max<std::size_t>(dev.info().max_work_group_size, 1));
    main.set(p, n).set(p + 1, total).set(p + 2, partials).set(p + 3, LocalMemory{bins * (weights ? 8 : 4)});
    q.launch(main, parts * group, group);
  }
  Array out = Array::empty(Shape({total}), acc, dev);
  KernelArgs merge(kernels.merge);
  merge.set(0, partials).set(1, static_cast<std::int64_t>(parts)).set(2, total).set(3, out.buffer());
  q.launch(merge, bins);
  out.mark_written();
  return out;
}

std::string histogram_source(const std::vector<BinAxis>& axes, const std::optional<Expr>& weights, int variant) {
  std::vector<ArgSpec> specs;
  std::vector<std::pair<std::string, std::string>> values;
  const std::string common = make_source(axes, weights, axes.at(0).value.shape(), specs, values);
  return common + substitute(variant_file[std::clamp(variant, 0, 2)], values);
}

}  // namespace weft::detail
