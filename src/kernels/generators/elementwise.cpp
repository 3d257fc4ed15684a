#include "weft/elementwise.hpp"

#include "embedded/weft_embedded.hpp"
#include "kernels/generators/device_style.hpp"
#include "kernels/generators/ordered.hpp"
#include "runtime/backend.hpp"
#include "runtime/device_local.hpp"
#include "weft/error.hpp"

#include <cctype>
#include <mutex>

namespace weft {

namespace detail {
namespace {
// The name of `a[i]` (spaces allowed around the pieces) when a is an array argument of dtype,
// writable where asked; otherwise "".
std::string indexed_array(std::string_view text, const std::vector<ArgSpec>& specs, DType dtype, bool writable) {
  std::string s;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  }
  constexpr std::string_view index = "[i]";
  if (s.size() <= index.size() || s.compare(s.size() - index.size(), index.size(), index) != 0) return {};
  s.resize(s.size() - index.size());
  for (const auto& spec : specs) {
    if (spec.name == s && spec.pointer && spec.dtype == dtype && spec.vector_width == 1 && (!writable || !spec.is_const)) {
      return spec.name;
    }
  }
  return {};
}
}  // namespace

std::string direct_array(std::string_view expr, const std::vector<ArgSpec>& specs, DType dtype) {
  const std::size_t bytes = size_of(dtype);
  return bytes == 4 || bytes == 8 ? indexed_array(expr, specs, dtype, false) : std::string();
}

std::string direct_store(std::string_view statement, const std::vector<ArgSpec>& specs, DType dtype) {
  // `y[i] = item` with an optional semicolon.
  while (!statement.empty() && (std::isspace(static_cast<unsigned char>(statement.back())) || statement.back() == ';')) {
    statement.remove_suffix(1);
  }
  const auto eq = statement.find('=');
  if (eq == std::string_view::npos) return {};
  std::string_view rhs = statement.substr(eq + 1);
  while (!rhs.empty() && std::isspace(static_cast<unsigned char>(rhs.front()))) rhs.remove_prefix(1);
  if (rhs != "item") return {};
  return indexed_array(statement.substr(0, eq), specs, dtype, true);
}

namespace {
DeviceStyle derive_style(const Device& d) {
  DeviceStyle s;
  const DeviceCapabilities& caps = d.capabilities();
  if (!caps.has_barriers || caps.prefers_row_kernels) {
    s.host = true;
    s.chunked = true;
    s.items = 1;
    s.group = 1;
    s.groups_per_unit = 4;
  } else if (d.type() == DeviceType::gpu) {
    // NVIDIA GPUs take inline PTX through CUDA and through NVIDIA's OpenCL alike (kernels
    // then use warp shuffles, named barriers, device-scope fences and asynchronous copies
    // under WEFT_PTX; src/kernels/cl/ptx_opencl.cl gives them to OpenCL C).
    const unsigned arch = d.info().nvidia_arch;
    s.ptx = caps.inline_ptx;
    s.device_fences = s.ptx;
    s.copies_async = s.ptx && arch >= 80;
    s.prefetches_bulk = s.ptx && arch >= 90;
    s.items = 4;
    s.group = 256;
    s.groups_per_unit = 8;
  } else {
    // OpenCL CPU devices (PoCL): work-groups exist, but barrier-heavy trees cost far more
    // there than chunked loops, which keep a core each on a contiguous range.
    s.chunked = true;
    s.items = 1;
    s.group = 64;
    s.groups_per_unit = 4;
  }
  s.options = " -D WEFT_EXACT=" + std::string(s.host ? "1" : "0") + " -D WEFT_ITEMS=" + std::to_string(s.items) +
              " -D WEFT_GROUP=" + std::to_string(s.group) + (s.ptx && !caps.native_ptx ? " -D WEFT_PTX=1 -D WEFT_PTX_ARCH=" + std::to_string(d.info().nvidia_arch) : "");
  return s;
}
}  // namespace

const DeviceStyle& device_style(const Device& d) {
  static DeviceLocal<const DeviceStyle> styles(
      [](const Device& dev) { return std::make_shared<const DeviceStyle>(derive_style(dev)); });
  return styles.get(d);
}
}  // namespace detail

ElementwiseKernel::ElementwiseKernel(std::string_view arguments, std::string_view operation, std::string_view name,
                                     std::string_view preamble, std::string_view options)
    : specs_(parse_arguments(arguments)), name_(name), who_("ElementwiseKernel '" + std::string(name) + "'"),
      options_(options) {
  if (operation.find_first_not_of(" \t\n;") == std::string_view::npos) {
    throw InvalidArgument(who_ + ": the operation is empty");
  }
  bool n_taken = false;
  for (const auto& s : specs_) n_taken |= s.name == "n";
  indexed_ = indexed_by_i(operation, specs_);
  // Complex arguments (cfloat, cdouble) come with the dialect's complex helpers.
  bool complex_args = false, complex_double = false;
  for (const auto& s : specs_) {
    complex_args = complex_args || is_complex(s.dtype);
    complex_double = complex_double || s.dtype == DType::complex128;
  }
  std::string head;
  if (complex_args && preamble.find("WEFT_COMPLEX_cfloat") == std::string_view::npos) {
    head = detail::complex_helpers(complex_double);
  }
  const std::string source = detail::substitute(
      weft::embedded::elementwise_cl, {{"PREAMBLE", head + std::string(preamble)},
                                       {"NAME", name_},
                                       {"ARGS", detail::parameter_list(specs_)},
                                       {"N", n_taken ? "weft_n" : "n"},
                                       {"OPERATION", std::string(operation)}});
  generated_ = std::make_shared<detail::GeneratedSource>(source);
}

namespace {
// Which pointer arguments the operation indexes as `name[i]` (spaces allowed), by a scan of
// its identifiers: those must hold n elements.
bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

std::vector<bool> ElementwiseKernel::indexed_by_i(std::string_view op, const std::vector<ArgSpec>& specs) {
  std::vector<bool> out(specs.size(), false);
  const auto skip = [&](std::size_t p) {
    while (p < op.size() && std::isspace(static_cast<unsigned char>(op[p]))) ++p;
    return p;
  };
  for (std::size_t p = 0; p < op.size();) {
    if (!is_ident(op[p]) || (p > 0 && is_ident(op[p - 1]))) {
      ++p;
      continue;
    }
    std::size_t e = p;
    while (e < op.size() && is_ident(op[e])) ++e;
    const std::string_view name = op.substr(p, e - p);
    std::size_t q = skip(e);
    if (q < op.size() && op[q] == '[') {
      q = skip(q + 1);
      if (q < op.size() && op[q] == 'i' && (q + 1 == op.size() || !is_ident(op[q + 1]))) {
        q = skip(q + 1);
        if (q < op.size() && op[q] == ']') {
          for (std::size_t k = 0; k < specs.size(); ++k) {
            if (specs[k].pointer && specs[k].name == name) out[k] = true;
          }
        }
      }
    }
    p = e;
  }
  return out;
}

Kernel ElementwiseKernel::kernel_for(const Device& device) {
  std::lock_guard lock(mutex_);
  for (auto& [dev, k] : kernels_) {
    if (dev == device.impl().get()) return k;
  }
  const auto& style = detail::device_style(device);
  Kernel k = generated_->program(device, options_ + style.options).kernel(name_);
  kernels_.emplace_back(device.impl().get(), k);
  return k;
}

Event ElementwiseKernel::launch(Queue& queue, KernelArgs& call, std::size_t n) {
  if (n == 0) return queue.marker();
  for (std::size_t k = 0; k < specs_.size(); ++k) {
    const auto& a = call.list()[k];
    if (!indexed_[k] || a.kind != detail::ArgValue::Kind::buffer) continue;
    const std::size_t elem = size_of(specs_[k].dtype) * (specs_[k].vector_width == 3 ? 4 : specs_[k].vector_width);
    const std::size_t held = a.buffer->size() / elem;
    if (held < n) {
      throw InvalidArgument(who_ + ": argument '" + specs_[k].name + "' holds " + std::to_string(held) +
                            " elements, but the operation reads or writes " + specs_[k].name + "[i] for i up to " +
                            std::to_string(n - 1));
    }
  }
  const auto& style = detail::device_style(queue.device());
  call.set(specs_.size(), static_cast<std::int64_t>(n));
  if (style.host) return queue.launch(call, n);
  // With one index per work-item the template's later indices fail its bounds check.
  const std::size_t per_item = one_index_ ? 1 : style.items;
  const std::size_t items = (n + per_item - 1) / per_item;
  const std::size_t global = (items + style.group - 1) / style.group * style.group;
  const detail::Ordered ordered(queue);  // on an out-of-order queue: after what came before
  return queue.launch(call, global, style.group, {}, ordered.wait());
}

}  // namespace weft
