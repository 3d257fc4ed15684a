// The launcher of kernels the host translation interchanged (dialect/strip_mine.hpp), after the
// host prelude (host_prelude.hpp's run_loop, divisor_of and kernel_traits) in the same translation
// unit: prelude.cpp joins them.
namespace weft_host {

// Kernels the translation interchanged (dialect/strip_mine.hpp): Strip runs up to 64 consecutive
// work-items of one row. Where the row's global ids may pass INT_MAX (a strip computes them as
// int), the work-items run one at a time as in run_loop.
template <auto Kernel, auto Strip, class... P>
WEFT_INLINE void strip_loop(const Launch& L, const DivisorMagic* div, size_t begin, size_t end, P... a) noexcept {
  const size_t g0 = L.gsize[0], g1 = L.gsize[1];
  size_t x = begin % g0;
  const size_t rest = begin / g0;
  size_t y = rest % g1, z = rest / g1;
  size_t left = end - begin;
  while (left) {
    const size_t xe = g0 - x < left ? g0 : x + left;
    const size_t gy = y + L.goff[1], gz = z + L.goff[2], ox = L.goff[0];
    if (xe + ox + 64 <= static_cast<size_t>(__INT_MAX__)) {
      for (size_t s = x; s < xe; s += 64) {
        const WorkItem wi{{s + ox, gy, gz}, &L, div};
        Strip(wi, static_cast<int>(xe - s < 64 ? xe - s : 64), a...);
      }
    } else {
      for (size_t i = x; i < xe; ++i) Kernel(WorkItem{{i + ox, gy, gz}, &L, div}, a...);
    }
    left -= xe - x;
    x = 0;
    if (++y == g1) {
      y = 0;
      ++z;
    }
  }
}

template <auto Kernel, auto Strip, unsigned long long Divides, class... P, int... I>
WEFT_INLINE void strip_range(void (*)(WorkItem, P...), weft_std::int_sequence<I...>, void* const* args,
                             const Launch* lp, size_t begin, size_t end) noexcept {
  const Launch L = *lp;
  DivisorMagic div[sizeof...(P) + 1] = {};
  (divisor_of<Divides, I, weft_std::remove_cv_t<P>>(div, args), ...);
  strip_loop<Kernel, Strip, weft_std::remove_cv_t<P>...>(
      L, div, begin, end, *static_cast<const weft_std::remove_cv_t<P>*>(args[I])...);
}

template <auto Kernel, auto Strip, unsigned long long Divides = 0>
inline void run_strips(void* const* args, const Launch* l, size_t begin, size_t end) noexcept {
  strip_range<Kernel, Strip, Divides>(
      Kernel, weft_std::make_integer_sequence<int, kernel_traits<decltype(Kernel)>::arity>{}, args, l, begin, end);
}

}  // namespace weft_host
