#include "weft/detail/generated.hpp"

#include <cstring>

#include "core/log.hpp"
#include "runtime/backend.hpp"
#include "weft/error.hpp"

namespace weft::detail {

void check_arg_count(std::string_view who, const std::vector<ArgSpec>& specs, std::size_t count) {
  if (count != specs.size()) {
    std::string list;
    for (const auto& s : specs) list += (list.empty() ? "" : ", ") + s.declaration();
    throw InvalidArgument(std::string(who) + " takes " + std::to_string(specs.size()) + " argument(s) (" + list +
                          "), " + std::to_string(count) + " given");
  }
}

void bind_buffer(KernelArgs& args, std::size_t index, const ArgSpec& spec, const Buffer& buffer, std::string_view who) {
  if (!spec.pointer) {
    throw InvalidArgument(std::string(who) + ": argument '" + spec.name + "' is declared '" + spec.declaration() +
                          "', a value; a Buffer was given");
  }
  if (!buffer) throw InvalidArgument(std::string(who) + ": argument '" + spec.name + "' is an empty Buffer");
  // bool elements are bytes holding 0 or 1: kernels declare them uchar.
  const auto compatible = [&](DType held) { return held == spec.dtype || (held == DType::bool_ && spec.dtype == DType::uint8); };
  if (auto dt = buffer.dtype(); dt && !compatible(*dt)) {
    throw InvalidArgument(std::string(who) + ": argument '" + spec.name + "' is declared '" + spec.declaration() +
                          "' but the buffer holds " + std::string(name(*dt)));
  }
  args.set(index, buffer);
}

namespace {
template <class T>
T convert(const ScalarArg& v) {
  switch (v.kind) {
    case ScalarArg::Kind::signed_int: return static_cast<T>(v.i);
    case ScalarArg::Kind::unsigned_int: return static_cast<T>(v.u);
    case ScalarArg::Kind::floating: break;
  }
  return static_cast<T>(v.f);
}

template <class T>
void set_typed(KernelArgs& args, std::size_t index, const ScalarArg& v, unsigned width) {
  // A vector value argument (float4 a) takes one number, broadcast to every component. The
  // spec is the parameter's declaration: no check against the kernel is needed.
  T lanes[16];
  for (unsigned i = 0; i < width; ++i) lanes[i] = convert<T>(v);
  auto& a = args.list()[index];
  const std::size_t size = sizeof(T) * (width == 3 ? 4 : width);
  a.kind = ArgValue::Kind::value;
  a.buffer.reset();
  a.size = size;
  std::memset(a.bytes.data(), 0, size);
  std::memcpy(a.bytes.data(), lanes, sizeof(T) * width);
}
}  // namespace

void bind_scalar(KernelArgs& kernel, std::size_t index, const ArgSpec& spec, const ScalarArg& v, std::string_view who) {
  if (spec.pointer) {
    throw InvalidArgument(std::string(who) + ": argument '" + spec.name + "' is declared '" + spec.declaration() +
                          "', a pointer; a number was given (pass a weft::Buffer)");
  }
  switch (spec.dtype) {
    case DType::bool_: return set_typed<bool>(kernel, index, v, spec.vector_width);
    case DType::int8: return set_typed<std::int8_t>(kernel, index, v, spec.vector_width);
    case DType::int16: return set_typed<std::int16_t>(kernel, index, v, spec.vector_width);
    case DType::int32: return set_typed<std::int32_t>(kernel, index, v, spec.vector_width);
    case DType::int64: return set_typed<std::int64_t>(kernel, index, v, spec.vector_width);
    case DType::uint8: return set_typed<std::uint8_t>(kernel, index, v, spec.vector_width);
    case DType::uint16: return set_typed<std::uint16_t>(kernel, index, v, spec.vector_width);
    case DType::uint32: return set_typed<std::uint32_t>(kernel, index, v, spec.vector_width);
    case DType::uint64: return set_typed<std::uint64_t>(kernel, index, v, spec.vector_width);
    case DType::float32: return set_typed<float>(kernel, index, v, spec.vector_width);
    case DType::float64: return set_typed<double>(kernel, index, v, spec.vector_width);
    case DType::float16: break;
    case DType::complex64:
    case DType::complex128:
      throw Unsupported(std::string(who) + ": complex value arguments are not supported (pass the real and "
                        "imaginary parts as two numbers, or a one-element array)");
  }
  throw Unsupported(std::string(who) + ": half-precision value arguments are not supported");
}

void bind_runtime_args(KernelArgs& k, const std::vector<ArgSpec>& specs, std::string_view who,
                       std::span<const RuntimeArg> args) {
  check_arg_count(who, specs, args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].is_buffer) bind_buffer(k, i, specs[i], args[i].buffer, who);
    else bind_scalar(k, i, specs[i], args[i].scalar, who);
  }
}

void copy_user_args(const KernelArgs& from, KernelArgs& to, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) to.list()[i] = from.list()[i];
}

Program GeneratedSource::program(const Device& device, std::string_view device_options) {
  return program_within_cap(device, device_options, 0, {});
}

Program GeneratedSource::program_within_cap(const Device& device, std::string_view device_options,
                                            std::size_t registers, std::string_view kernel, bool forced) {
  std::lock_guard lock(mutex_);
  for (const auto& [dev, prog] : built_) {
    if (dev == device.impl().get()) return prog;
  }
  if (registers == 0 || device.info().nvidia_arch == 0) {
    Program p = Program::build(device, source_, device_options);
    built_.emplace_back(device.impl().get(), p);
    return p;
  }
  const std::string options = std::string(device_options);
  Program p = Program::build(device, source_, options + " -cl-nv-maxrregcount=" + std::to_string(registers));
  const auto capped = p.kernel(kernel).private_bytes_per_item();
  if (!forced && capped && *capped > 0) {
    Program free = Program::build(device, source_, options);
    const auto uncapped = free.kernel(kernel).private_bytes_per_item();
    WEFT_LOG_INFO(kernel << " on " << device.selector() << ": " << *capped << " private bytes per work-item in memory under "
                         << registers << " registers, " << (uncapped ? std::to_string(*uncapped) : "?")
                         << " without the cap; " << (uncapped && *uncapped < *capped ? "the cap is dropped" : "the cap stays"));
    if (uncapped && *uncapped < *capped) p = std::move(free);
  }
  built_.emplace_back(device.impl().get(), p);
  return p;
}

std::string substitute(std::string_view text, const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  out.reserve(text.size() * 2);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find("${", pos);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find('}', open);
    out.append(text.substr(pos, open - pos));
    const std::string_view key = text.substr(open + 2, close - open - 2);
    bool found = false;
    for (const auto& [k, v] : values) {
      if (k == key) {
        out += v;
        found = true;
        break;
      }
    }
    if (!found) throw Error("generator template: no value for ${" + std::string(key) + "}");
    pos = close + 1;
  }
  out.append(text.substr(pos));
  return out;
}

std::string parameter_list(const std::vector<ArgSpec>& specs) {
  std::string s;
  for (const auto& a : specs) s += a.declaration() + ", ";
  return s;
}

std::string name_list(const std::vector<ArgSpec>& specs) {
  std::string s;
  for (const auto& a : specs) s += a.name + ", ";
  return s;
}

}  // namespace weft::detail
