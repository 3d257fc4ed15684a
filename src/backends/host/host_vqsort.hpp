// The host sort's vectorized path for keys alone: Highway's vqsort in the plugin
// libweft_vqsort.so (src/backends/host/vqsort, built where Highway's headers are found),
// opened at the first host sort from libweft's folder. Without it the radix sort of
// host_radix.hpp sorts everything (one WEFT_LOG=info line says why).
//
// vqsort is not stable, and Highway 1.0.3's sort of floats wrote +inf back as the largest
// finite value: floats are sorted as the unsigned integers of the same order (a bijection of
// their bits), and the keys come out exactly as the stable radix sort leaves them all the same:
// keys of equal value and equal bits need no order, and the only float keys of equal value
// whose bits differ are NaNs (weft's order has them all equal and largest: set apart here in
// input order, after the numbers, before them descending) and the two zeros (their run put
// back in input order). On the 2-core VM's Sapphire Rapids, 10^4 float32 keys on one thread:
// 46 us against the radix sort's 184 (NumPy's np.sort 45).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "backends/host/vqsort/weft_vqsort.h"

namespace weft::detail {

/// The plugin's table once loaded, else null (absent, of another ABI, or turned off by
/// set_host_vqsort). The first call loads it.
const weft_vqsort_api* host_vqsort();

/// Turns the plugin's use on or off in this process (tests compare it with the radix sort);
/// returns whether it was on.
bool set_host_vqsort(bool on);

namespace host_sort {

/// Sorts the n keys at in into out (in may equal out; tmp: scratch of n keys, used only
/// then) in weft's order, as the stable radix sort would (Kind as host_radix.hpp's ordered()).
/// False, with out holding the keys as they came, where the plugin is not loaded or does not
/// sort such keys.
template <class K, int Kind>
bool vectorized_sort(const K* in, K* out, K* tmp, std::size_t n, bool descending) {
  const weft_vqsort_api* api = host_vqsort();
  constexpr auto bytes = static_cast<std::uint32_t>(sizeof(K));
  constexpr std::int32_t kind = Kind == 1 ? WEFT_VQSORT_SIGNED : WEFT_VQSORT_UNSIGNED;
  // (weft_vqsort.h's ABI 1 sorts every integer of 2, 4 and 8 bytes: no query per call.)
  if (!api || sizeof(K) < 2 || (Kind == 2 && sizeof(K) < 4)) return false;
  const int down = descending ? 1 : 0;
  if constexpr (Kind != 2) {
    if (out != in) std::memcpy(out, in, n * sizeof(K));
    return api->sort(out, n, kind, bytes, down) == 0;
  } else {
    constexpr K sign = static_cast<K>(K{1} << (8 * sizeof(K) - 1));
    constexpr K inf = sizeof(K) == 4 ? static_cast<K>(0x7f800000u) : static_cast<K>(0x7ff0000000000000ull);
    const K* src = in;
    if (in == out) {
      std::memcpy(tmp, in, n * sizeof(K));
      src = tmp;
    }
    const auto magnitude = [](K k) { return static_cast<K>(k & static_cast<K>(~sign)); };
    // A float's bits as an unsigned integer of the same order (-0.0 just below 0.0), and back.
    // (Negative: every bit flipped; else the sign set. Branch-free, so that the passes vectorize.)
    constexpr int top = 8 * sizeof(K) - 1;
    const auto to_ordered = [](K k) { return static_cast<K>(k ^ (static_cast<K>(K{0} - (k >> top)) | sign)); };
    const auto from_ordered = [](K o) { return static_cast<K>(o ^ (static_cast<K>(K{0} - (static_cast<K>(~o) >> top)) | sign)); };
    // The keys into out as ordered integers, counting the zeros and NaNs (the keys that need more
    // than vqsort) on the way, in one pass that vectorizes (K-wide counts per block); then, only
    // where there are any, each kind, the negatives, and the NaNs set apart. (On the 2-core VM a
    // pass over 2^24 floats costs about 6 ms beside vqsort's 95.)
    std::size_t special = 0;
    for (std::size_t at = 0; at < n; at += 65536) {
      K block = 0;
      for (std::size_t i = at, end = at + std::min<std::size_t>(65536, n - at); i < end; ++i) {
        const K k = src[i];
        block += static_cast<K>(static_cast<K>(magnitude(k) - 1) >= inf);  // (0 wraps round)
        out[i] = to_ordered(k);
      }
      special += block;
    }
    std::size_t nans = 0, negative = 0, neg_zero = 0, pos_zero = 0;
    if (special) {
      for (std::size_t i = 0; i < n; ++i) {
        const K k = src[i];
        const bool neg = (k & sign) != 0, nan = magnitude(k) > inf, zero = magnitude(k) == 0;
        nans += nan;
        negative += neg & !nan & !zero;
        neg_zero += neg & zero;
        pos_zero += !neg & zero;
      }
    }
    const std::size_t numbers = n - nans;
    K* keys = out + (descending ? nans : 0);
    if (nans != 0) {
      K* nan_at = out + (descending ? 0 : numbers);
      std::size_t j = 0, q = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const K k = src[i];
        if (magnitude(k) > inf) {
          nan_at[q++] = k;
        } else {
          keys[j++] = to_ordered(k);
        }
      }
    }
    if (api->sort(keys, numbers, kind, bytes, down) != 0) {
      std::memcpy(out, src, n * sizeof(K));  // (out as it came, for the radix sort: in may be out)
      return false;
    }
    for (std::size_t i = 0; i < numbers; ++i) keys[i] = from_ordered(keys[i]);
    if (neg_zero && pos_zero) {
      // The zeros' run follows the negative numbers (the positive ones, descending).
      K* run = keys + (descending ? numbers - negative - neg_zero - pos_zero : negative);
      std::size_t z = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (magnitude(src[i]) == 0) run[z++] = src[i];
      }
    }
    return true;
  }
}

}  // namespace host_sort
}  // namespace weft::detail
