#include "backends/host/host_memory.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <sstream>

#include "backends/host/host_device.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

std::string format_bytes(std::size_t n) {
  std::ostringstream os;
  if (n >= (1ull << 30)) os << static_cast<double>(n) / static_cast<double>(1ull << 30) << " GiB";
  else if (n >= (1ull << 20)) os << static_cast<double>(n) / static_cast<double>(1ull << 20) << " MiB";
  else os << n << " bytes";
  return os.str();
}

}  // namespace

void HostBuffer::Free::operator()(void* p) const noexcept { std::free(p); }

HostBuffer::HostBuffer(std::shared_ptr<DeviceImpl> device, std::size_t bytes)
    : BufferImpl(std::move(device), bytes) {
  if (bytes == 0) return;
  // Large buffers sit on 2 MiB boundaries and ask for transparent huge pages (as NumPy
  // does): fewer TLB misses and page faults when threads stream through them. Small ones
  // are cache-line aligned.
  const bool huge = bytes >= (std::size_t{4} << 20);
  const std::size_t align = huge ? (std::size_t{2} << 20) : 64;
  const std::size_t rounded = (bytes + align - 1) / align * align;
  const auto& info = this->device()->info();
  void* p = rounded <= info.max_alloc_bytes ? std::aligned_alloc(align, rounded) : nullptr;
  if (!p) {
    throw OutOfMemory("host: cannot allocate " + format_bytes(bytes) + " (" + std::to_string(bytes) +
                          " bytes); the machine has " + format_bytes(info.global_mem_bytes),
                      bytes, "", "aligned_alloc");
  }
  if (huge) ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure changes nothing
  data_.reset(p);
}

BufferPtr HostDevice::wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) {
  return std::make_shared<HostBuffer>(shared_from_this(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)),
                                      bytes, std::move(owner));
}

BufferPtr HostDevice::allocate(std::size_t bytes) {
  return std::make_shared<HostBuffer>(shared_from_this(), bytes);
}

}  // namespace weft::detail
