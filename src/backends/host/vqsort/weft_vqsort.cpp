// libweft_vqsort: weft_vqsort.h's table over Highway's hwy::Sorter, one per thread (a Sorter
// holds the scratch it sorts with and is not to be shared).
#include "weft_vqsort.h"

#include <hwy/contrib/sort/vqsort.h>
#include <hwy/highway.h>

#include <cstdint>

namespace {

#define WEFT_VQSORT_STR2(x) #x
#define WEFT_VQSORT_STR(x) WEFT_VQSORT_STR2(x)

const char* version() {
  return "Highway " WEFT_VQSORT_STR(HWY_MAJOR) "." WEFT_VQSORT_STR(HWY_MINOR) "." WEFT_VQSORT_STR(HWY_PATCH) " vqsort";
}

template <class K>
int sort_as(void* keys, std::uint64_t count, std::int32_t descending) {
  thread_local const hwy::Sorter sorter;
  if (count < 2) return 0;
  auto* k = static_cast<K*>(keys);
  const auto n = static_cast<size_t>(count);
  if (descending) {
    sorter(k, n, hwy::SortDescending());
  } else {
    sorter(k, n, hwy::SortAscending());
  }
  return 0;
}

int sort(void* keys, std::uint64_t count, std::int32_t kind, std::uint32_t bytes, std::int32_t descending) {
  switch (kind) {
    case WEFT_VQSORT_UNSIGNED:
      if (bytes == 2) return sort_as<std::uint16_t>(keys, count, descending);
      if (bytes == 4) return sort_as<std::uint32_t>(keys, count, descending);
      if (bytes == 8) return sort_as<std::uint64_t>(keys, count, descending);
      break;
    case WEFT_VQSORT_SIGNED:
      if (bytes == 2) return sort_as<std::int16_t>(keys, count, descending);
      if (bytes == 4) return sort_as<std::int32_t>(keys, count, descending);
      if (bytes == 8) return sort_as<std::int64_t>(keys, count, descending);
      break;
    default:
      break;
  }
  return WEFT_VQSORT_UNSUPPORTED;
}

const weft_vqsort_api table{WEFT_VQSORT_ABI_VERSION, &version, &sort};

}  // namespace

extern "C" __attribute__((visibility("default"))) const weft_vqsort_api* weft_vqsort_api_v1(void) { return &table; }
