// The reference the sort tests compare with: std::stable_sort in NumPy's order (NaNs last and
// equal to each other, -0.0 equal to 0.0), bit for bit, and random keys with the special
// values, duplicates and extremes that tell the order apart. Shared by test_sort.cpp,
// test_sort_paths.cpp and backends/cuda/test_cub_sort.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "weft/array.hpp"

namespace weft::test {

// NumPy's order: NaNs after everything, equal among themselves; -0.0 == 0.0.
template <class T>
bool numpy_less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// The stable permutation that sorts each row of `cols` values (descending: the ascending
// order reversed with ties kept in input order).
template <class T>
std::vector<std::int64_t> reference_argsort(const std::vector<T>& v, std::size_t cols, bool descending) {
  std::vector<std::int64_t> idx(v.size());
  for (std::size_t r = 0; cols && r < v.size() / cols; ++r) {
    auto first = idx.begin() + static_cast<std::ptrdiff_t>(r * cols);
    std::iota(first, first + static_cast<std::ptrdiff_t>(cols), std::int64_t{0});
    const T* row = v.data() + r * cols;
    std::stable_sort(first, first + static_cast<std::ptrdiff_t>(cols), [&](std::int64_t a, std::int64_t b) {
      return descending ? numpy_less(row[b], row[a]) : numpy_less(row[a], row[b]);
    });
  }
  return idx;
}

template <class T>
std::vector<T> apply(const std::vector<T>& v, const std::vector<std::int64_t>& idx, std::size_t cols) {
  std::vector<T> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i / cols * cols + static_cast<std::size_t>(idx[i])];
  return out;
}

template <class T>
std::vector<T> host_values(const Array& a) {
  std::vector<T> out(static_cast<std::size_t>(a.size()));
  if (!out.empty()) a.to_host_bytes(out.data(), a.dtype());
  return out;
}

// Bit for bit: the sort moves each key's own bits (NaN payloads, the sign of zero).
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T>
std::string show(const std::vector<T>& v) {
  std::string s;
  for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 24); ++i) s += std::to_string(+v[i]) + " ";
  return v.size() > 24 ? s + "..." : s;
}

template <class T>
std::vector<T> random_keys(std::size_t n, unsigned seed, int distinct) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      const T specials[] = {std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(),
                            std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(), T(0), -T(0),
                            std::numeric_limits<T>::denorm_min(), -std::numeric_limits<T>::denorm_min(),
                            std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest()};
      const auto r = rng() % 16;
      x = r < 10 ? specials[r] : static_cast<T>(static_cast<double>(static_cast<std::int64_t>(rng() % (2 * distinct)) - distinct) / 3.0);
    } else {
      // Few distinct values (duplicates), with the type's extremes among them.
      const auto r = rng() % static_cast<std::uint64_t>(distinct + 2);
      x = r == 0 ? std::numeric_limits<T>::min() : r == 1 ? std::numeric_limits<T>::max() : static_cast<T>(rng());
      if (r > 1 && distinct < 1000) x = static_cast<T>(static_cast<std::int64_t>(r) - distinct / 2);
    }
  }
  return v;
}

}  // namespace weft::test
