// The host sort's algorithms on plain memory (host_sort.hpp says when each runs): the key
// order of src/kernels/cl/sort_keys.cl, and a stable sort of one range of keys with an
// optional payload by insertion, merge or LSD radix sort.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/host/host_vqsort.hpp"
#include "backends/host/thread_pool.hpp"

namespace weft::detail::host_sort {

struct NoPayload {};

template <class K>
constexpr K sign_bit = static_cast<K>(K{1} << (8 * sizeof(K) - 1));

template <class K>
constexpr K inf_bits = sizeof(K) == 2   ? static_cast<K>(0x7c00u)
                       : sizeof(K) == 4 ? static_cast<K>(0x7f800000u)
                                        : static_cast<K>(0x7ff0000000000000ull);

// weft_sort_order of sort_keys.cl: Kind 0 unsigned (and bool), 1 signed, 2 IEEE float.
template <class K, int Kind>
inline K ordered(K k) noexcept {
  if constexpr (Kind == 0) {
    return k;
  } else if constexpr (Kind == 1) {
    return static_cast<K>(k ^ sign_bit<K>);
  } else {
    const K magnitude = static_cast<K>(k & static_cast<K>(~sign_bit<K>));
    if (magnitude > inf_bits<K>) return static_cast<K>(~K{0});
    if (magnitude == 0) return sign_bit<K>;
    return (k & sign_bit<K>) ? static_cast<K>(~k) : static_cast<K>(k | sign_bit<K>);
  }
}

// Runs f(part) for every part, on the pool when there is one and more than one part; the
// first exception a part throws is rethrown once all have run.
template <class F>
void each_part(ThreadPool* pool, std::size_t parts, F& f) {
  if (!pool || parts == 1) {
    for (std::size_t t = 0; t < parts; ++t) f(t);
    return;
  }
  std::mutex failed_mutex;
  std::exception_ptr failed;
  auto guarded = [&](std::size_t t) {
    try {
      f(t);
    } catch (...) {
      const std::lock_guard lock(failed_mutex);
      if (!failed) failed = std::current_exception();
    }
  };
  pool->run(parts, guarded);
  if (failed) std::rethrow_exception(failed);
}

// One range of keys (a row, or the whole array) with its payload and scratch of equal length.
template <class K, class P>
struct Range {
  const K* in = nullptr;
  const P* pin = nullptr;  // nullptr: no payload, or the index payload (iota)
  K* out = nullptr;
  P* pout = nullptr;
  K* tmp = nullptr;
  P* ptmp = nullptr;
  std::size_t n = 0;
  std::uint64_t base = 0;  // the index payload of in[0]
  bool iota = false;
  K flip = 0;
};

// Stable sorts of keys of K bits (ordered by Kind, see ordered()) with payloads P.
//
// A range of 2^16 keys or more: one pass over it counts every digit (11 bits; 8 for 8- and
// 16-bit keys), one parallel stable scatter by the highest digit that varies (MSD) moves the
// keys into buckets in the scratch, then each bucket, small enough to stay in cache for the
// usual inputs, is sorted by an LSD radix sort on the digits below, the buckets spread over
// the threads. Shorter ranges: the LSD sort alone (by bytes where few keys make that pay:
// bytes_pay), a merge sort below 96 keys, an insertion sort up to 32. Every digit on which all
// keys of a range agree is skipped.
template <class K, int Kind, class P>
class Sorter {
 public:
  static constexpr bool has_payload = !std::is_same_v<P, NoPayload>;
  static constexpr int bits = 8 * static_cast<int>(sizeof(K));
  static constexpr int passes = (bits + 10) / 11;  // 1, 2, 3, 6 passes for 8..64 bits
  static constexpr int digit_bits = (bits + passes - 1) / passes;
  static constexpr std::size_t buckets = std::size_t{1} << digit_bits;
  static constexpr std::size_t insertion_max = 32;
  static constexpr std::size_t lsd_min = 96;
  // The byte passes that cover the digits below top (never past the key's width).
  static int byte_passes(int top) noexcept { return std::min((top * digit_bits + 7) / 8, static_cast<int>(sizeof(K))); }
  // Whether an LSD sort of len keys by the digits below top (of digit_bits) is cheaper by
  // 8-bit digits: more passes, each with 256 counts to clear and scan instead of 2^11. A count
  // costs about 0.4 of a key's move (the H200 machine's host, one thread, both sorts
  // interleaved: 32-bit keys break even near 2000); by bytes below about 600 keys for one
  // 11-bit pass, 1300 for two, 2048 for three.
  static bool bytes_pay(std::size_t len, int top) noexcept {
    if (digit_bits <= 8) return false;
    const auto byte_passes = static_cast<std::size_t>(Sorter::byte_passes(top));
    const auto digit_passes = static_cast<std::size_t>(top);
    return len * (byte_passes - digit_passes) * 5 < (digit_passes * buckets - byte_passes * 256) * 2;
  }
  static constexpr std::size_t two_level_min = std::size_t{1} << 16;
  // Buckets from this many keys, and from buckets x lsd_min (196608 for 11-bit digits), are
  // split again rather than sorted by LSD passes.
  static constexpr std::size_t split_min = std::size_t{1} << 15;

  static K key(K k, K flip) noexcept { return static_cast<K>(ordered<K, Kind>(k) ^ flip); }
  static std::size_t digit(K o, int pass) noexcept {
    return static_cast<std::size_t>(o >> (pass * digit_bits)) & (buckets - 1);
  }

  // Keys alone on vqsort (host_vqsort.hpp) are split over the threads (each bucket of the
  // parallel split by vqsort) from this many keys and four threads; below, one thread sorts
  // them all: on the 2-core VM the split's count and scatter passes made 6.5 x 10^4 - 4 x 10^6
  // keys 1.2-2.3 times slower than vqsort on one thread.
  static constexpr std::size_t vectorized_split_min = std::size_t{1} << 18;

  // Sorts r stably into r.out, on parts threads of pool (nullptr: this thread).
  static void sort(const Range<K, P>& r, std::size_t parts, ThreadPool* pool) {
    if constexpr (!has_payload) {
      if (r.n > insertion_max && (r.n < vectorized_split_min || parts < 4) &&
          vectorized_sort<K, Kind>(r.in, r.out, r.tmp, r.n, r.flip != 0)) {
        return;
      }
    }
    if (r.n >= two_level_min) {
      two_level(r, parts, pool);
      return;
    }
    copy_through(r);
    in_place(r.out, r.pout, r.tmp, r.ptmp, r.n, r.flip);
  }

 private:
  static void copy_keys(K* dst, P* pdst, const K* src, const P* psrc, std::size_t len) {
    std::memcpy(dst, src, len * sizeof(K));
    if constexpr (has_payload) std::memcpy(pdst, psrc, len * sizeof(P));
  }

  // Keys (and payload) as they are, into out.
  static void copy_through(const Range<K, P>& r) {
    if (r.out != r.in) std::memcpy(r.out, r.in, r.n * sizeof(K));
    if constexpr (has_payload) {
      if (r.iota) {
        for (std::size_t i = 0; i < r.n; ++i) r.pout[i] = static_cast<P>(r.base + i);
      } else if (r.pout != r.pin) {
        std::memcpy(r.pout, r.pin, r.n * sizeof(P));
      }
    }
  }

  // Sorts len keys at a (payloads at pa) where they are, with scratch b, pb of len.
  static void in_place(K* a, P* pa, K* b, P* pb, std::size_t len, K flip) {
    if (len <= insertion_max && sizeof(K) <= 4) {
      packed_insertion(a, pa, b, pb, len, flip);
    } else if (len <= insertion_max) {
      insertion(a, pa, len, flip);
    } else if (len < lsd_min) {
      merge(a, pa, b, pb, len, flip);
    } else if (lsd_cheapest(a, pa, b, pb, len, flip, passes)) {
      copy_keys(a, pa, b, pb, len);
    }
  }

  template <std::size_t W>
  static void bitonic(std::uint64_t* v) {
    for (std::size_t k = 2; k <= W; k <<= 1) {
      for (std::size_t j = k >> 1; j > 0; j >>= 1) {
        for (std::size_t i = 0; i < W; ++i) {
          const std::size_t l = i ^ j;
          if (l <= i) continue;
          const std::uint64_t x = v[i], y = v[l];
          const std::uint64_t lo = x < y ? x : y, hi = x < y ? y : x;
          const bool up = (i & k) == 0;
          v[i] = up ? lo : hi;
          v[l] = up ? hi : lo;
        }
      }
    }
  }

  // Keys of up to 32 bits: (ordered key, position) packed into one 64-bit integer, sorted by
  // a bitonic network (the position makes it stable), then a gather from a copy in the scratch.
  static void packed_insertion(K* a, P* pa, K* b, P* pb, std::size_t len, K flip) {
    std::uint64_t packed[insertion_max];
    for (std::size_t i = 0; i < len; ++i) packed[i] = (static_cast<std::uint64_t>(key(a[i], flip)) << 32) | i;
    // Padding above every packed key, then a branch-free bitonic network of the next power of 2.
    const std::size_t width = len <= 8 ? 8 : len <= 16 ? 16 : 32;
    std::fill(packed + len, packed + width, ~std::uint64_t{0});
    if (width == 8) {
      bitonic<8>(packed);
    } else if (width == 16) {
      bitonic<16>(packed);
    } else {
      bitonic<32>(packed);
    }
    copy_keys(b, pb, a, pa, len);
    for (std::size_t i = 0; i < len; ++i) {
      const auto from = static_cast<std::uint32_t>(packed[i]);
      a[i] = b[from];
      if constexpr (has_payload) pa[i] = pb[from];
    }
  }

  static void insertion(K* a, P* pa, std::size_t len, K flip) {
    for (std::size_t i = 1; i < len; ++i) {
      const K k = a[i];
      const K o = key(k, flip);
      P p{};
      if constexpr (has_payload) p = pa[i];
      std::size_t j = i;
      for (; j > 0 && key(a[j - 1], flip) > o; --j) {
        a[j] = a[j - 1];
        if constexpr (has_payload) pa[j] = pa[j - 1];
      }
      a[j] = k;
      if constexpr (has_payload) pa[j] = p;
    }
  }

  // A stable merge sort of (key, position) pairs, then a gather from a copy in the scratch.
  static void merge(K* a, P* pa, K* b, P* pb, std::size_t len, K flip) {
    std::vector<std::pair<K, std::uint32_t>> order(len);
    for (std::size_t i = 0; i < len; ++i) order[i] = {key(a[i], flip), static_cast<std::uint32_t>(i)};
    std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    copy_keys(b, pb, a, pa, len);
    for (std::size_t i = 0; i < len; ++i) {
      a[i] = b[order[i].second];
      if constexpr (has_payload) pa[i] = pb[order[i].second];
    }
  }

  // An LSD radix sort by the digits of the passes below `top`, between a (where the keys are)
  // and b; returns whether they ended in b.
  static bool lsd(K* a, P* pa, K* b, P* pb, std::size_t len, K flip, int top) {
    return lsd_digits<digit_bits>(a, pa, b, pb, len, flip, top);
  }
  // The same by bytes where bytes_pay says so (the bits of digit top that a last byte takes in
  // are equal throughout the range: the caller's digits from top up are).
  static bool lsd_cheapest(K* a, P* pa, K* b, P* pb, std::size_t len, K flip, int top) {
    return bytes_pay(len, top) ? lsd_digits<8>(a, pa, b, pb, len, flip, byte_passes(top))
                               : lsd(a, pa, b, pb, len, flip, top);
  }
  // The same by digits of DB bits (passes below top of them).
  template <int DB>
  static bool lsd_digits(K* a, P* pa, K* b, P* pb, std::size_t len, K flip, int top) {
    constexpr std::size_t n_buckets = std::size_t{1} << DB;
    auto dig = [](K o, int pass) { return static_cast<std::size_t>(o >> (pass * DB)) & (n_buckets - 1); };
    thread_local std::vector<std::size_t> hist;
    hist.assign(static_cast<std::size_t>(top) * n_buckets, 0);
    for (std::size_t i = 0; i < len; ++i) {
      const K o = key(a[i], flip);
      for (int p = 0; p < top; ++p) ++hist[p * n_buckets + dig(o, p)];
    }
    bool in_b = false;
    for (int p = 0; p < top; ++p) {
      std::size_t* pos = &hist[p * n_buckets];
      std::size_t running = 0;
      bool constant = false;
      for (std::size_t d = 0; d < n_buckets; ++d) {
        const std::size_t c = pos[d];
        constant = constant || c == len;
        pos[d] = running;
        running += c;
      }
      if (constant) continue;
      const K* src = in_b ? b : a;
      const P* psrc = in_b ? pb : pa;
      K* dst = in_b ? a : b;
      P* pdst = in_b ? pa : pb;
      for (std::size_t i = 0; i < len; ++i) {
        const K k = src[i];
        const std::size_t at = pos[dig(key(k, flip), p)]++;
        dst[at] = k;
        if constexpr (has_payload) pdst[at] = psrc[i];
      }
      in_b = !in_b;
    }
    return in_b;
  }

  // Sorts the len keys of a bucket at src, whose digits from `top` up are all equal, into src
  // (to_alt false) or alt (true), the other serving as scratch. Buckets too large for the
  // cache are split by their highest varying digit first, as the whole range was.
  static void bucket(K* src, P* psrc, K* alt, P* palt, bool to_alt, std::size_t len, K flip, int top) {
    K* fin = to_alt ? alt : src;
    P* pfin = to_alt ? palt : psrc;
    K* other = to_alt ? src : alt;
    P* pother = to_alt ? psrc : palt;
    if (len < lsd_min || top == 0) {
      if (to_alt) copy_keys(alt, palt, src, psrc, len);
      if (top > 0) in_place(fin, pfin, other, pother, len, flip);
      return;
    }
    // (A split into 2^11 buckets of fewer than lsd_min keys each would sort each of them apart,
    // by a network or a merge sort: 10^5 floats in [0.5, 1.5) took 2.4 ms on one thread where
    // LSD passes take half.)
    if (len < split_min || len < buckets * lsd_min) {
      const bool in_alt = lsd_cheapest(src, psrc, alt, palt, len, flip, top);
      if (in_alt != to_alt) {
        if (to_alt) {
          copy_keys(alt, palt, src, psrc, len);
        } else {
          copy_keys(src, psrc, alt, palt, len);
        }
      }
      return;
    }
    thread_local std::vector<std::size_t> hist;
    hist.assign(static_cast<std::size_t>(top) * buckets, 0);
    for (std::size_t i = 0; i < len; ++i) {
      const K o = key(src[i], flip);
      for (int p = 0; p < top; ++p) ++hist[p * buckets + digit(o, p)];
    }
    int q = top - 1;
    for (; q >= 0; --q) {
      if (std::find(&hist[q * buckets], &hist[q * buckets] + buckets, len) == &hist[q * buckets] + buckets) break;
    }
    if (q < 0) {
      if (to_alt) copy_keys(alt, palt, src, psrc, len);
      return;
    }
    std::vector<std::size_t> starts(buckets + 1);
    std::size_t running = 0;
    for (std::size_t d = 0; d < buckets; ++d) {
      starts[d] = running;
      running += hist[q * buckets + d];
    }
    starts[buckets] = len;
    std::vector<std::size_t> pos(starts.begin(), starts.end() - 1);
    for (std::size_t i = 0; i < len; ++i) {
      const K k = src[i];
      const std::size_t at = pos[digit(key(k, flip), q)]++;
      alt[at] = k;
      if constexpr (has_payload) palt[at] = psrc[i];
    }
    for (std::size_t d = 0; d < buckets; ++d) {
      const std::size_t s = starts[d], n = starts[d + 1] - s;
      if (n == 0) continue;
      P* pa = has_payload ? palt + s : nullptr;
      P* ps = has_payload ? psrc + s : nullptr;
      bucket(alt + s, pa, src + s, ps, !to_alt, n, flip, q);
    }
  }

  static void two_level(const Range<K, P>& r, std::size_t parts, ThreadPool* pool) {
    const std::size_t n = r.n;
    // Counts of every digit of every pass, per part: one read of the input.
    std::vector<std::size_t> hist(parts * passes * buckets, 0);
    auto bound = [&](std::size_t t) { return n * t / parts; };
    auto count_all = [&](std::size_t t) {
      std::size_t* h = &hist[t * passes * buckets];
      for (std::size_t i = bound(t), end = bound(t + 1); i < end; ++i) {
        const K o = key(r.in[i], r.flip);
        for (int p = 0; p < passes; ++p) ++h[p * buckets + digit(o, p)];
      }
    };
    each_part(pool, parts, count_all);
    // The highest digit that varies.
    std::vector<std::size_t> totals(buckets);
    int top = passes - 1;
    for (; top >= 0; --top) {
      bool constant = false;
      for (std::size_t d = 0; d < buckets; ++d) {
        std::size_t total = 0;
        for (std::size_t t = 0; t < parts; ++t) total += hist[(t * passes + top) * buckets + d];
        totals[d] = total;
        constant = constant || total == n;
      }
      if (!constant) break;
    }
    if (top < 0) {
      copy_through(r);
      return;
    }
    // The scatter by that digit into the scratch (never the input: in place is fine).
    std::vector<std::size_t> offsets(parts * buckets);
    std::vector<std::size_t> starts(buckets + 1);
    std::size_t running = 0;
    for (std::size_t d = 0; d < buckets; ++d) {
      starts[d] = running;
      for (std::size_t t = 0; t < parts; ++t) {
        offsets[t * buckets + d] = running;
        running += hist[(t * passes + top) * buckets + d];
      }
    }
    starts[buckets] = n;
    auto scatter = [&](std::size_t t) {
      std::size_t* pos = &offsets[t * buckets];
      for (std::size_t i = bound(t), end = bound(t + 1); i < end; ++i) {
        const K k = r.in[i];
        const std::size_t at = pos[digit(key(k, r.flip), top)]++;
        r.tmp[at] = k;
        if constexpr (has_payload) r.ptmp[at] = r.iota ? static_cast<P>(r.base + i) : r.pin[i];
      }
    };
    each_part(pool, parts, scatter);
    // Each bucket by the digits below, into out; buckets in chunks of about equal keys. (Keys
    // alone: by vqsort where loaded, each bucket's keys in input order in the scratch.)
    bool vectorized = false;
    if constexpr (!has_payload) vectorized = host_vqsort() != nullptr;
    const std::size_t chunks = parts == 1 ? 1 : 8 * parts;
    auto finish = [&](std::size_t c) {
      const std::size_t lo = n * c / chunks, hi = n * (c + 1) / chunks;
      for (std::size_t d = 0; d < buckets; ++d) {
        const std::size_t s = starts[d], len = starts[d + 1] - s;
        if (s < lo || s >= hi || len == 0) continue;
        if constexpr (!has_payload) {
          if (vectorized && vectorized_sort<K, Kind>(r.tmp + s, r.out + s, nullptr, len, r.flip != 0)) continue;
        }
        P* pt = has_payload ? r.ptmp + s : nullptr;
        P* po = has_payload ? r.pout + s : nullptr;
        bucket(r.tmp + s, pt, r.out + s, po, true, len, r.flip, top);
      }
    };
    each_part(pool, chunks, finish);
  }
};

}  // namespace weft::detail::host_sort
