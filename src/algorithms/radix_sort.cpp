// The radix sort's passes (or the device's sort library: runtime/sort_engine.hpp): which kernels, how many work-items, which buffer each pass reads
// and writes. src/kernels/cl/radix_sort.cl says how one pass works.
#include "algorithms/radix_sort.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backends/host/host_sort.hpp"
#include "core/lifetime.hpp"
#include "embedded/weft_embedded.hpp"
#include "runtime/device_local.hpp"
#include "runtime/ordered_command.hpp"
#include "runtime/sort_engine.hpp"
#include "weft/error.hpp"
#include "weft/kernel_args.hpp"
#include "weft/program.hpp"

namespace weft::detail {

namespace {

constexpr std::size_t radix = 256;
constexpr int digit_bits = 8;

const char* bits_type(std::size_t bytes) {
  switch (bytes) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    case 8: return "ulong";
    default: return nullptr;
  }
}

// A sort program's variant: the key type and the payload's size (0: none).
std::size_t payload_slot(std::size_t payload_size) {
  switch (payload_size) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 2;
    case 4: return 3;
    case 8: return 4;
    default:
      throw InvalidArgument("sort: values of " + std::to_string(payload_size) +
                            " bytes cannot move with the keys; 1, 2, 4 or 8 bytes can");
  }
}

struct SortKernels {
  Kernel count;
  Kernel scan;
  Kernel scatter;
};

// A device's sort programs, built on first use of each variant.
class SortPrograms {
 public:
  explicit SortPrograms(const Device& device) : device_(device) {}

  const SortKernels& get(DType key, std::size_t payload_size) {
    const std::size_t slot = static_cast<std::size_t>(key) * 5 + payload_slot(payload_size);
    std::lock_guard lock(mutex_);
    std::unique_ptr<SortKernels>& k = built_[slot];
    if (!k) {
      const Program p = Program::build(device_, sort_program_source(key, payload_size));
      k = std::make_unique<SortKernels>(
          SortKernels{p.kernel("weft_sort_count"), p.kernel("weft_sort_scan"), p.kernel("weft_sort_scatter")});
    }
    return *k;
  }

 private:
  Device device_;
  std::mutex mutex_;  // held while a variant is built: builds of one device run one at a time
  std::array<std::unique_ptr<SortKernels>, std::size(all_dtypes) * 5> built_;
};

SortPrograms& programs(const Device& device) {
  static Immortal<DeviceLocal<SortPrograms>> table;  // never destroyed: core/lifetime.hpp
  return table->get(device);
}

// How a pass spreads over the device: `items` work-items of `chunk` keys each, in work-groups
// of `group`. Each work-item clears, fills and reads 256 counters besides its keys, so chunks
// are long (at least 4096 keys). A CPU gets a few work-items per thread, each in a work-group
// of its own (CPU runtimes hand whole work-groups to their threads); a GPU many more, up to
// 4096, as weft_sort_scan walks the work-items serially.
struct Spread {
  std::size_t items = 1;
  std::size_t chunk = 1;
  std::size_t group = 1;
};

Spread spread(const DeviceInfo& info, std::size_t n) {
  constexpr std::size_t min_chunk = 4096;
  const std::size_t units = std::max(1u, info.compute_units);
  const bool cpu = info.type == DeviceType::cpu;
  const std::size_t most = cpu ? 4 * units : std::min<std::size_t>(4096, 64 * units);
  Spread s;
  s.items = std::clamp<std::size_t>((n + min_chunk - 1) / min_chunk, 1, most);
  // A chunk's counts are 32-bit.
  s.items = std::max<std::size_t>(s.items, (n + (std::size_t{1} << 31) - 1) >> 31);
  s.chunk = std::max<std::size_t>(1, (n + s.items - 1) / s.items);
  s.items = std::max<std::size_t>(1, (n + s.chunk - 1) / s.chunk);
  s.group = cpu ? 1 : std::min<std::size_t>(64, std::max<std::size_t>(1, info.max_work_group_size));
  return s;
}

std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

bool same_buffer(const Buffer& a, const Buffer& b) { return a.impl() == b.impl(); }

void check_buffer(const Buffer& b, const Device& device, std::size_t bytes, const char* what) {
  if (!b) throw InvalidArgument(std::string("sort: the ") + what + " buffer is empty");
  if (!(b.device() == device)) {
    throw InvalidArgument(std::string("sort: the ") + what + " buffer lives on " + b.device().selector() +
                          ", the queue on " + device.selector());
  }
  if (b.size() < bytes) {
    throw InvalidArgument(std::string("sort: the ") + what + " buffer holds " + std::to_string(b.size()) +
                          " bytes; " + std::to_string(bytes) + " are needed");
  }
}

}  // namespace

std::string sort_key_source(DType t) {
  const std::size_t bytes = size_of(t);
  const std::string key = bits_type(bytes);
  const std::string suffix = bytes == 8 ? "UL" : "U";
  const std::uint64_t sign = std::uint64_t{1} << (8 * bytes - 1);
  int kind = 0;
  std::string inf = "0";
  if (is_signed_integer(t)) kind = 1;
  if (is_floating(t)) {
    kind = 2;
    inf = bytes == 2 ? "0x7c00" : bytes == 4 ? "0x7f800000" : "0x7ff0000000000000";
  }
  std::string s = "#define WEFT_SORT_KEY " + key + "\n#define WEFT_SORT_KIND " + std::to_string(kind) +
                  "\n#define WEFT_SORT_SIGN ((" + key + ")" + std::to_string(sign) + suffix + ")" +
                  "\n#define WEFT_SORT_INF ((" + key + ")" + inf + suffix + ")\n";
  s += embedded::sort_keys_cl;
  // The key bits of a value as the array kernels type it (bool is uchar there, half has no
  // arithmetic type: its arrays are not sorted through generated kernels).
  if (t != DType::float16) {
    const std::string value = t == DType::bool_ ? "uchar" : std::string(c_name(t));
    const std::string bits = kind == 2 ? "as_" + key + "(x)" : "(" + key + ")x";
    s += "\ninline weft_sort_key weft_sort_bits(" + value + " x) { return " + bits + "; }\n";
  }
  return s;
}

std::string search_source(DType t) {
  const std::string value = t == DType::bool_ ? "uchar" : std::string(c_name(t));
  return "typedef " + value + " weft_sort_elem;\n" + sort_key_source(t) + "\n" + std::string(embedded::search_cl);
}

std::string sort_program_source(DType key, std::size_t payload_size) {
  payload_slot(payload_size);  // refuses other sizes
  std::string source = sort_key_source(key);
  if (payload_size) source = "#define WEFT_SORT_PAYLOAD " + std::string(bits_type(payload_size)) + "\n" + source;
  source += "\n";
  source += embedded::radix_sort_cl;
  return source;
}

Event radix_sort(Queue& queue, const RadixSortJob& job, const SortScratch& scratch, std::span<const Event> wait) {
  const Device dev = queue.device();
  const std::size_t n = job.count;
  const std::size_t key_size = size_of(job.key_type);
  const std::size_t row_len = job.row_len ? job.row_len : n;
  if (n == 0) return queue.marker(wait);
  if (row_len == 0 || n % row_len != 0) {
    throw InvalidArgument("sort: " + std::to_string(n) + " keys do not make rows of " + std::to_string(row_len));
  }
  const std::size_t rows = n / row_len;
  if (rows > 1 && !job.payload_index) throw InvalidArgument("sort: several rows need the index payload");
  const std::size_t payload_size = job.payload_index ? 8 : job.payload_size;
  check_buffer(job.keys_in, dev, n * key_size, "keys");
  check_buffer(job.keys_out, dev, n * key_size, "sorted keys");
  if (payload_size) {
    if (!job.payload_index) check_buffer(job.payload_in, dev, n * payload_size, "values");
    check_buffer(job.payload_out, dev, n * payload_size, "sorted values");
  }
  payload_slot(payload_size);  // refuses sizes other than 0, 1, 2, 4 and 8
  // The host device sorts natively (backends/host/host_sort.hpp), payloads of the same sizes.
  if (std::optional<Event> native = host_radix_sort(queue, job, scratch, wait)) return *native;
  // The device's sort library where it has one and takes the job (CUB on CUDA devices).
  if (SortEngine* engine = sort_engine(*dev.impl())) {
    SortDesc d;
    d.key_type = job.key_type;
    d.count = n;
    d.row_len = rows > 1 ? row_len : 0;
    d.descending = job.descending;
    d.keys_in = job.keys_in.impl();
    d.keys_out = job.keys_out.impl();
    d.payload_size = job.payload_index ? 0 : job.payload_size;
    d.payload_index = job.payload_index;
    if (payload_size && !job.payload_index) d.payload_in = job.payload_in.impl();
    if (payload_size) d.payload_out = job.payload_out.impl();
    if (const std::optional<std::size_t> bytes = engine->scratch_bytes(d)) {
      const Buffer temp = scratch(*bytes);
      return ordered(queue.impl(), wait, [&](std::span<const EventPtr> w) {
        return engine->execute(*queue.impl(), d, temp.impl(), w);
      });
    }
  }
  const SortKernels& k = programs(dev).get(job.key_type, payload_size);

  // Digit passes over the keys, then over the rows (the row number's bytes that vary).
  const std::size_t key_passes = key_size;
  const std::size_t row_passes = (static_cast<std::size_t>(std::bit_width(rows - 1)) + digit_bits - 1) / digit_bits;
  const std::size_t passes = key_passes + row_passes;

  const Spread s = spread(dev.info(), n);
  const Buffer counts = scratch(radix * s.items * sizeof(std::uint64_t));
  const Buffer totals = scratch(radix * sizeof(std::uint64_t));
  const Buffer keys_tmp = scratch(n * key_size);
  const Buffer payload_tmp = payload_size ? scratch(n * payload_size) : Buffer();
  // A payload-less program still takes a buffer for its payload parameters.
  const Buffer& no_payload = counts;

  std::vector<Event> after(wait.begin(), wait.end());
  // Pass p writes keys_out when passes - 1 - p is even, so the last pass lands there. Pass 0
  // reads the input, which must not be the buffer it writes: an in-place sort with an odd
  // number of passes first copies its input aside.
  Buffer keys_src = job.keys_in;
  Buffer payload_src = job.payload_index ? Buffer() : job.payload_in;
  if (passes % 2 == 1 && same_buffer(job.keys_in, job.keys_out)) {
    after = {queue.copy(job.keys_in, keys_tmp, n * key_size, 0, 0, after)};
    keys_src = keys_tmp;
  }
  if (passes % 2 == 1 && payload_size && !job.payload_index && same_buffer(job.payload_in, job.payload_out)) {
    after = {queue.copy(job.payload_in, payload_tmp, n * payload_size, 0, 0, after)};
    payload_src = payload_tmp;
  }

  const std::uint64_t flip = job.descending ? ~std::uint64_t{0} : 0;
  const NDRange global(round_up(s.items, s.group)), local(s.group);
  const auto items = static_cast<std::int64_t>(s.items);
  const auto chunk = static_cast<std::int64_t>(s.chunk);
  Event last;
  for (std::size_t p = 0; p < passes; ++p) {
    const bool by_row = p >= key_passes;
    const int shift = static_cast<int>(digit_bits * (by_row ? p - key_passes : p));
    const int iota = job.payload_index && p == 0 ? 1 : 0;
    const bool to_out = (passes - 1 - p) % 2 == 0;
    const Buffer& keys_dst = to_out ? job.keys_out : keys_tmp;
    const Buffer& payload_dst = payload_size ? (to_out ? job.payload_out : payload_tmp) : no_payload;
    const Buffer& payload_read = payload_size && !iota ? payload_src : no_payload;

    KernelArgs count(k.count);
    count.set_all(keys_src, payload_read, static_cast<std::int64_t>(n), chunk, shift, by_row ? 1 : 0,
                  static_cast<std::int64_t>(row_len), flip, iota, items, counts);
    const Event counted[] = {queue.launch(count, global, local, {}, after)};
    KernelArgs scan(k.scan);
    scan.set_all(items, counts, totals);
    const Event scanned[] = {queue.launch(scan, NDRange(radix), NDRange(s.group == 1 ? 1 : 64), {}, counted)};
    KernelArgs scatter(k.scatter);
    scatter.set_all(keys_src, payload_read, static_cast<std::int64_t>(n), chunk, shift, by_row ? 1 : 0,
                    static_cast<std::int64_t>(row_len), flip, iota, items, counts, totals, keys_dst, payload_dst);
    last = queue.launch(scatter, global, local, {}, scanned);
    after = {last};
    keys_src = keys_dst;
    if (payload_size) payload_src = payload_dst;
  }
  return last;
}

}  // namespace weft::detail
