// Kernel arguments as the runtime passes them to a backend: one ArgValue per parameter, held
// in an ArgList that keeps up to 16 of them inline, so that binding and launching a kernel of
// common size allocates nothing. Not a public API of its own: KernelArgs (kernel_args.hpp)
// and Kernel::set_arg are the public faces.
#pragma once

#include "weft/export.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace weft::detail {

class BufferImpl;
using BufferPtr = std::shared_ptr<BufferImpl>;

/// One bound kernel argument. Values are copied when set and snapshotted at launch, as in
/// OpenCL: changing an argument after a launch does not affect that launch.
struct WEFT_API ArgValue {
  enum class Kind : std::uint8_t { unset, buffer, value, local };
  static constexpr std::size_t max_value_size = 128;  // double16

  // User-provided, so that an ArgList's inline slots are not zeroed (128 bytes each).
  ArgValue() noexcept {}  // NOLINT(modernize-use-equals-default)
  // Copies move only the bytes in use: most values are 4 or 8 bytes of the 128.
  ArgValue(const ArgValue& o) : kind(o.kind), buffer(o.buffer), size(o.size) { copy_bytes(o); }
  ArgValue(ArgValue&& o) noexcept : kind(o.kind), buffer(std::move(o.buffer)), size(o.size) { copy_bytes(o); }
  ArgValue& operator=(const ArgValue& o) {
    if (this != &o) {
      kind = o.kind;
      buffer = o.buffer;
      size = o.size;
      copy_bytes(o);
    }
    return *this;
  }
  ArgValue& operator=(ArgValue&& o) noexcept {
    if (this != &o) {
      kind = o.kind;
      buffer = std::move(o.buffer);
      size = o.size;
      copy_bytes(o);
    }
    return *this;
  }
  ~ArgValue() = default;

  Kind kind = Kind::unset;
  BufferPtr buffer;             // Kind::buffer
  std::size_t size = 0;         // bytes of a value, of __local memory, or of a buffer's use (0: all)
  alignas(16) std::array<std::byte, max_value_size> bytes;  // Kind::value: the first `size`

 private:
  void copy_bytes(const ArgValue& o) noexcept {
    if (kind == Kind::value) std::memcpy(bytes.data(), o.bytes.data(), size);
  }
};

/// The arguments of one launch: a vector of ArgValue that holds 16 in place and spills to the
/// heap beyond (generated array kernels with many strided operands). Only the arguments in
/// use are ever constructed, moved or destroyed: making an empty ArgList costs nothing.
class WEFT_API ArgList {
 public:
  static constexpr std::size_t inline_capacity = 16;

  ArgList() noexcept = default;
  explicit ArgList(std::size_t n) { resize(n); }
  ArgList(const ArgList& o) { assign_from(o); }
  ArgList(ArgList&& o) noexcept { take_from(std::move(o)); }
  ArgList& operator=(const ArgList& o) {
    if (this != &o) {
      clear();
      assign_from(o);
    }
    return *this;
  }
  ArgList& operator=(ArgList&& o) noexcept {
    if (this != &o) {
      clear();
      take_from(std::move(o));
    }
    return *this;
  }
  ~ArgList() { clear(); }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  ArgValue* data() noexcept { return size_ > inline_capacity ? heap_.data() : local(); }
  const ArgValue* data() const noexcept { return size_ > inline_capacity ? heap_.data() : local(); }
  ArgValue& operator[](std::size_t i) noexcept { return data()[i]; }
  const ArgValue& operator[](std::size_t i) const noexcept { return data()[i]; }
  ArgValue* begin() noexcept { return data(); }
  ArgValue* end() noexcept { return data() + size_; }
  const ArgValue* begin() const noexcept { return data(); }
  const ArgValue* end() const noexcept { return data() + size_; }

  /// n arguments, every one unset (what was there is dropped).
  void resize(std::size_t n) {
    clear();
    if (n > inline_capacity) {
      heap_.resize(n);
    } else {
      for (std::size_t i = 0; i < n; ++i) new (local() + i) ArgValue();
    }
    size_ = n;
  }
  /// Drops every argument (and the buffers they hold).
  void clear() noexcept {
    if (size_ > inline_capacity) {
      heap_.clear();
    } else {
      for (std::size_t i = 0; i < size_; ++i) local()[i].~ArgValue();
    }
    size_ = 0;
  }

 private:
  ArgValue* local() noexcept { return std::launder(reinterpret_cast<ArgValue*>(storage_)); }
  const ArgValue* local() const noexcept { return std::launder(reinterpret_cast<const ArgValue*>(storage_)); }
  // Both expect this list empty.
  void assign_from(const ArgList& o) {
    if (o.size_ > inline_capacity) {
      heap_ = o.heap_;
    } else {
      for (std::size_t i = 0; i < o.size_; ++i) new (local() + i) ArgValue(o.local()[i]);
    }
    size_ = o.size_;
  }
  void take_from(ArgList&& o) noexcept {
    if (o.size_ > inline_capacity) {
      heap_ = std::move(o.heap_);
    } else {
      for (std::size_t i = 0; i < o.size_; ++i) new (local() + i) ArgValue(std::move(o.local()[i]));
    }
    size_ = o.size_;
    o.clear();
  }

  alignas(ArgValue) std::byte storage_[inline_capacity * sizeof(ArgValue)];
  std::vector<ArgValue> heap_;
  std::size_t size_ = 0;
};

}  // namespace weft::detail
