// weft host prelude: the OpenCL C 1.2 dialect as C++20, for kernels the host backend
// compiles with the system C++ compiler. The translation unit is: launch_abi.hpp, this
// file's head (below), the shared dialect core (src/dialect/prelude/core_*.hpp), this
// file's tail (after the WEFT-CORE marker line), then the user's source inside namespace
// weft_kernel, then the launchers. See docs/DIALECT.md for what the translation rewrites.
// It includes no standard header: those define hundreds of macros (stdin, offsetof, PATH_MAX,
// alloca ...) that OpenCL C lets users take as names. The compiler's builtins serve instead.

#define WEFT_INLINE inline __attribute__((always_inline))
#define WEFT_F(name) __builtin_##name##f
#define WEFT_D(name) __builtin_##name
#define WEFT_HALF _Float16

extern "C" int printf(const char* format, ...);
// The per-work-item arrays of kernels with barriers (weft_host::Scratch) come from the C
// library's allocator, declared here without its header.
extern "C" void* aligned_alloc(decltype(sizeof 0) alignment, decltype(sizeof 0) bytes);
extern "C" void free(void* p);
WEFT_INLINE void* weft_host_alloc(decltype(sizeof 0) bytes) {
  void* p = aligned_alloc(64, bytes);
  if (!p) __builtin_trap();  // out of memory inside a kernel: no error channel, stop loudly
  return p;
}
WEFT_INLINE void weft_host_free(void* p) { free(p); }

namespace weft_core {
WEFT_INLINE int weft_clz64(unsigned long long x) noexcept { return x ? __builtin_clzll(x) : 64; }
WEFT_INLINE int weft_popcount64(unsigned long long x) noexcept { return __builtin_popcountll(x); }
WEFT_INLINE unsigned long long weft_mul_hi_u64(unsigned long long a, unsigned long long b) noexcept {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
WEFT_INLINE long long weft_mul_hi_s64(long long a, long long b) noexcept {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
}  // namespace weft_core

namespace weft_host {
/// The reciprocal of a kernel argument that divides (UniformDivisor below), made once per range.
struct DivisorMagic {
  unsigned long long m;
  unsigned char s1, s2;
};
struct WorkItem {
  size_t gid[3];
  const Launch* l;
  const DivisorMagic* div = nullptr;  // per parameter; set for the ones the kernel divides by
  WEFT_INLINE size_t global_id(unsigned d) const { return d < 3 ? gid[d] : 0; }
  WEFT_INLINE size_t global_size(unsigned d) const { return d < 3 ? l->gsize[d] : 1; }
  WEFT_INLINE size_t global_offset(unsigned d) const { return d < 3 ? l->goff[d] : 0; }
  WEFT_INLINE size_t local_size(unsigned d) const { return d < 3 ? l->lsize[d] : 1; }
  WEFT_INLINE size_t local_id(unsigned d) const {
    return d < 3 ? (gid[d] - l->goff[d]) % l->lsize[d] : 0;
  }
  WEFT_INLINE size_t group_id(unsigned d) const {
    return d < 3 ? (gid[d] - l->goff[d]) / l->lsize[d] : 0;
  }
  WEFT_INLINE size_t num_groups(unsigned d) const {
    return d < 3 ? l->gsize[d] / l->lsize[d] : 1;
  }
  WEFT_INLINE unsigned work_dim() const { return l->work_dim; }
};
}  // namespace weft_host
//// WEFT-CORE ////
namespace weft_kernel {
// The work-item of helper functions: set per work-item only when the program's non-kernel
// functions call work-item functions (kernels get theirs as a parameter of the same name).
inline thread_local weft_host::WorkItem weft_wi{};
using ::printf;
// OpenCL C's address-sized integer types (in C++ they would come from <cstddef>/<cstdint>).
typedef weft_host::size_t size_t;
typedef decltype(static_cast<char*>(nullptr) - static_cast<char*>(nullptr)) ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;

// ---- atomics (OpenCL 1.2: relaxed, on __global or __local int/uint/long/ulong) -------------
#define WEFT_ATOMIC_RMW(name, builtin)                                                   \
  template <class T>                                                                     \
    requires weft_std::is_integral_v<T>                                                       \
  WEFT_INLINE T name(volatile T* p, weft_std::type_identity_t<T> v) noexcept {               \
    return builtin(p, v, __ATOMIC_RELAXED);                                              \
  }
WEFT_ATOMIC_RMW(atomic_add, __atomic_fetch_add)
WEFT_ATOMIC_RMW(atomic_sub, __atomic_fetch_sub)
WEFT_ATOMIC_RMW(atomic_and, __atomic_fetch_and)
WEFT_ATOMIC_RMW(atomic_or, __atomic_fetch_or)
WEFT_ATOMIC_RMW(atomic_xor, __atomic_fetch_xor)
WEFT_ATOMIC_RMW(atom_add, __atomic_fetch_add)
WEFT_ATOMIC_RMW(atom_sub, __atomic_fetch_sub)
WEFT_ATOMIC_RMW(atom_and, __atomic_fetch_and)
WEFT_ATOMIC_RMW(atom_or, __atomic_fetch_or)
WEFT_ATOMIC_RMW(atom_xor, __atomic_fetch_xor)
#undef WEFT_ATOMIC_RMW
template <class T>
WEFT_INLINE T atomic_xchg(volatile T* p, weft_std::type_identity_t<T> v) noexcept {
  if constexpr (weft_std::is_floating_point_v<T>) {
    using U = weft_std::conditional_t<sizeof(T) == 8, unsigned long, unsigned>;
    U uv;
    uv = weft_std::bit_cast<U>(v);
    const U old = __atomic_exchange_n(reinterpret_cast<volatile U*>(p), uv, __ATOMIC_RELAXED);
    return weft_std::bit_cast<T>(old);
  } else {
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
  }
}
template <class T>
WEFT_INLINE T atom_xchg(volatile T* p, weft_std::type_identity_t<T> v) noexcept { return atomic_xchg(p, v); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_inc(volatile T* p) noexcept { return __atomic_fetch_add(p, T(1), __ATOMIC_RELAXED); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_dec(volatile T* p) noexcept { return __atomic_fetch_sub(p, T(1), __ATOMIC_RELAXED); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_inc(volatile T* p) noexcept { return atomic_inc(p); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_dec(volatile T* p) noexcept { return atomic_dec(p); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_cmpxchg(volatile T* p, weft_std::type_identity_t<T> cmp, weft_std::type_identity_t<T> v) noexcept {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return cmp;
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_cmpxchg(volatile T* p, weft_std::type_identity_t<T> cmp, weft_std::type_identity_t<T> v) noexcept {
  return atomic_cmpxchg(p, cmp, v);
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_min(volatile T* p, weft_std::type_identity_t<T> v) noexcept {
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_max(volatile T* p, weft_std::type_identity_t<T> v) noexcept {
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old < v && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_min(volatile T* p, weft_std::type_identity_t<T> v) noexcept { return atomic_min(p, v); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_max(volatile T* p, weft_std::type_identity_t<T> v) noexcept { return atomic_max(p, v); }

// Atomics on __local memory in kernels split at barriers (dialect/group_fission.hpp): one
// thread runs a whole group, so they are plain read-modify-writes there.
#define WEFT_LOCAL_RMW(name, expr)                                                          \
  template <class T>                                                                        \
  WEFT_INLINE T weft_local_##name(volatile T* p, weft_std::type_identity_t<T> v) noexcept { \
    T* q = const_cast<T*>(p);                                                               \
    const T old = *q;                                                                       \
    *q = expr;                                                                              \
    return old;                                                                             \
  }
WEFT_LOCAL_RMW(atomic_add, old + v)
WEFT_LOCAL_RMW(atomic_sub, old - v)
WEFT_LOCAL_RMW(atomic_and, old & v)
WEFT_LOCAL_RMW(atomic_or, old | v)
WEFT_LOCAL_RMW(atomic_xor, old ^ v)
WEFT_LOCAL_RMW(atomic_min, v < old ? v : old)
WEFT_LOCAL_RMW(atomic_max, old < v ? v : old)
WEFT_LOCAL_RMW(atomic_xchg, v)
WEFT_LOCAL_RMW(atom_add, old + v)
WEFT_LOCAL_RMW(atom_sub, old - v)
WEFT_LOCAL_RMW(atom_and, old & v)
WEFT_LOCAL_RMW(atom_or, old | v)
WEFT_LOCAL_RMW(atom_xor, old ^ v)
WEFT_LOCAL_RMW(atom_min, v < old ? v : old)
WEFT_LOCAL_RMW(atom_max, old < v ? v : old)
WEFT_LOCAL_RMW(atom_xchg, v)
#undef WEFT_LOCAL_RMW
template <class T>
WEFT_INLINE T weft_local_atomic_inc(volatile T* p) noexcept { return weft_local_atomic_add(p, T(1)); }
template <class T>
WEFT_INLINE T weft_local_atomic_dec(volatile T* p) noexcept { return weft_local_atomic_sub(p, T(1)); }
template <class T>
WEFT_INLINE T weft_local_atom_inc(volatile T* p) noexcept { return weft_local_atomic_add(p, T(1)); }
template <class T>
WEFT_INLINE T weft_local_atom_dec(volatile T* p) noexcept { return weft_local_atomic_sub(p, T(1)); }
template <class T>
WEFT_INLINE T weft_local_atomic_cmpxchg(volatile T* p, weft_std::type_identity_t<T> cmp,
                                        weft_std::type_identity_t<T> v) noexcept {
  T* q = const_cast<T*>(p);
  const T old = *q;
  if (old == cmp) *q = v;
  return old;
}
template <class T>
WEFT_INLINE T weft_local_atom_cmpxchg(volatile T* p, weft_std::type_identity_t<T> cmp,
                                      weft_std::type_identity_t<T> v) noexcept {
  return weft_local_atomic_cmpxchg(p, cmp, v);
}

// Asynchronous copies between global and __local memory, in kernels split at barriers
// (dialect/group_fission.hpp): the group's one call copies at once, so waiting is free.
typedef int event_t;
template <class T>
WEFT_INLINE event_t async_work_group_copy(T* dst, const T* src, size_t n, event_t e) noexcept {
  for (size_t i = 0; i < n; ++i) dst[i] = src[i];
  return e;
}
// The strided forms: global to __local strides the source, __local to global the destination
// (the translation tells them apart by the destination's address space).
template <class T>
WEFT_INLINE event_t weft_async_copy_strided_src(T* dst, const T* src, size_t n, size_t stride, event_t e) noexcept {
  for (size_t i = 0; i < n; ++i) dst[i] = src[i * stride];
  return e;
}
template <class T>
WEFT_INLINE event_t weft_async_copy_strided_dst(T* dst, const T* src, size_t n, size_t stride, event_t e) noexcept {
  for (size_t i = 0; i < n; ++i) dst[i * stride] = src[i];
  return e;
}
WEFT_INLINE void wait_group_events(int, event_t*) noexcept {}
template <class T>
WEFT_INLINE void prefetch(const T*, size_t) noexcept {}

// Fences order one work-item's own accesses, which the host runs in program order anyway.
// barrier() only appears in kernels the host refuses to run (see dialect/parse.cpp); it compiles
// here so that the other kernels of the same program stay usable.
WEFT_INLINE void mem_fence(int) noexcept { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
WEFT_INLINE void read_mem_fence(int) noexcept { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
WEFT_INLINE void write_mem_fence(int) noexcept { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
WEFT_INLINE void barrier(int) noexcept {}
WEFT_INLINE void work_group_barrier(int) noexcept {}

}  // namespace weft_kernel

namespace weft_host {

// ---- division by a kernel argument (dialect/host_translate.cpp) ----------------------------
// `x / n` and `x % n`, where n is a by-value integer kernel parameter the kernel never writes,
// divide by a UniformDivisor whose reciprocal run_range makes once per range of work-items:
// for integers of n's own type a multiply and a shift replace the division, as compilers do
// for constant divisors (hardware division costs tens of cycles and does not vectorize). Any
// other operand (floating point, vectors, other integer types) divides by n as written.
// The reciprocal of divisor d as U (unsigned, 32 or 64 bits). 32 bits: m = ceil(2^64 / d),
// x / d = high half of m * x (Lemire, Kaser and Kurz 2019), s1 = 1 for d == 1 (m = 0). 64 bits:
// Granlund and Montgomery's round-up method, with the shifts s1 and s2.
template <class U>
WEFT_INLINE DivisorMagic divisor_magic(U d) noexcept {
  if (d <= 1) return {0, static_cast<unsigned char>(sizeof(U) == 4 ? d : 0), 0};  // x / 0 is undefined: no trap here
  if constexpr (sizeof(U) == 4) {
    return {~0ull / d + 1, 0, 0};
  } else {
    const unsigned l = 64 - static_cast<unsigned>(__builtin_clzll(d - 1));
    const auto m = static_cast<unsigned long long>(((((unsigned __int128)1 << l) - d) << 64) / d + 1);
    return {m, 1, static_cast<unsigned char>(l - 1)};
  }
}
template <class T, bool = weft_std::is_integral_v<T>> struct divisor_unsigned { using type = unsigned; };
template <class T> struct divisor_unsigned<T, true> { using type = weft_std::make_unsigned_t<T>; };
template <class T>
struct UniformDivisor {
  using U = typename divisor_unsigned<T>::type;
  static constexpr bool fast =
      weft_std::is_integral_v<T> && !weft_std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
  T v;
  unsigned long long m = 0;
  unsigned char s1 = 0, s2 = 0;
  U one = 0;  // all ones for a 32-bit divisor of 1 (m = 0), else 0
  // The reciprocal of |d| for T; g as magic_of(d) made it.
  WEFT_INLINE static DivisorMagic magic_of(T d) noexcept {
    if constexpr (fast) return divisor_magic<U>(weft_std::is_signed_v<T> && d < 0 ? U(0) - U(d) : U(d));
    else return {0, 0, 0};
  }
  WEFT_INLINE UniformDivisor(T d, const DivisorMagic& g) noexcept : v(d), m(g.m), s1(g.s1), s2(g.s2), one(sizeof(U) == 4 && g.s1 ? U(~U(0)) : U(0)) {}
  // The quotient of |x| by |d|.
  WEFT_INLINE U udiv(U x) const noexcept {
    const U t = static_cast<U>(((unsigned __int128)m * x) >> 64);
    if constexpr (sizeof(U) == 4) return t + (x & one);
    else return (t + ((x - t) >> s1)) >> s2;
  }
  WEFT_INLINE T div(T x) const noexcept {
    if constexpr (weft_std::is_signed_v<T>) {
      const U ax = x < 0 ? U(0) - U(x) : U(x);
      const U q = udiv(ax);
      return static_cast<T>((x < 0) != (v < 0) ? U(0) - q : q);
    } else {
      return udiv(x);
    }
  }
  // 0 <= x < v: x itself (a wrap-around index such as (i + 1) % n costs a compare).
  WEFT_INLINE T mod(T x) const noexcept {
    if ((!weft_std::is_signed_v<T> || v > 0) && static_cast<U>(x) < static_cast<U>(v)) return x;
    return static_cast<T>(static_cast<U>(x) - static_cast<U>(div(x)) * static_cast<U>(v));
  }
};
template <class X, class T>
WEFT_INLINE auto operator/(const X& x, const UniformDivisor<T>& d) noexcept -> decltype(x / d.v) {
  using R = decltype(x / d.v);
  if constexpr (UniformDivisor<T>::fast && weft_std::is_integral_v<X> && weft_std::is_same_v<R, T>) {
    return d.div(static_cast<T>(x));
  } else {
    return x / d.v;
  }
}
template <class X, class T>
WEFT_INLINE auto operator%(const X& x, const UniformDivisor<T>& d) noexcept -> decltype(x % d.v) {
  using R = decltype(x % d.v);
  if constexpr (UniformDivisor<T>::fast && weft_std::is_integral_v<X> && weft_std::is_same_v<R, T>) {
    return d.mod(static_cast<T>(x));
  } else {
    return x % d.v;
  }
}

template <class F>
struct kernel_traits;
template <class... P>
struct kernel_traits<void (*)(WorkItem, P...)> {
  static constexpr size_t arity = sizeof...(P);
  static constexpr KernelInfo info() noexcept {
    static_assert(sizeof...(P) <= 64, "a kernel may have at most 64 parameters");
    return KernelInfo{static_cast<uint32_t>(sizeof...(P)), {static_cast<uint32_t>(sizeof(P))...}};
  }
};

// Runs work-items [begin, end) of a launch. The argument values arrive as parameters, so
// they are plain values the compiler keeps in registers, and the innermost loop (over x)
// vectorizes when the kernel body allows.
template <auto Kernel, bool SetTls, class... P>
WEFT_INLINE void run_loop(const Launch& L, const DivisorMagic* div, size_t begin, size_t end, P... a) noexcept {
  const size_t g0 = L.gsize[0], g1 = L.gsize[1];
  size_t x = begin % g0;
  const size_t rest = begin / g0;
  size_t y = rest % g1, z = rest / g1;
  size_t left = end - begin;
  while (left) {
    const size_t xe = g0 - x < left ? g0 : x + left;
    const size_t gy = y + L.goff[1], gz = z + L.goff[2], ox = L.goff[0];
    if (xe + ox <= static_cast<size_t>(__INT_MAX__)) {
      // Kernels write `int i = get_global_id(0)`. With a size_t counter that conversion may
      // wrap as far as the compiler knows, the addresses stop being affine and nothing
      // vectorizes; an int counter (that cannot overflow here) makes it fold away.
      const int ib = static_cast<int>(x + ox), ie = static_cast<int>(xe + ox);
      for (int i = ib; i < ie; ++i) {
        const WorkItem wi{{static_cast<size_t>(i), gy, gz}, &L, div};
        if constexpr (SetTls) ::weft_kernel::weft_wi = wi;
        Kernel(wi, a...);
      }
    } else {
      for (size_t i = x; i < xe; ++i) {
        const WorkItem wi{{i + ox, gy, gz}, &L, div};
        if constexpr (SetTls) ::weft_kernel::weft_wi = wi;
        Kernel(wi, a...);
      }
    }
    left -= xe - x;
    x = 0;
    if (++y == g1) {
      y = 0;
      ++z;
    }
  }
}

template <unsigned long long Divides, int I, class P>
WEFT_INLINE void divisor_of(DivisorMagic* div, void* const* args) noexcept {
  if constexpr ((Divides >> I & 1) != 0) div[I] = UniformDivisor<P>::magic_of(*static_cast<const P*>(args[I]));
}

// Divides is the mask of the parameters the kernel divides by (host_translate.cpp): their
// reciprocals are made here, once per range, and reach the kernel through its WorkItem.
template <auto Kernel, bool SetTls, unsigned long long Divides, class... P, int... I>
WEFT_INLINE void run_range(void (*)(WorkItem, P...), weft_std::int_sequence<I...>, void* const* args,
                           const Launch* lp, size_t begin, size_t end) noexcept {
  const Launch L = *lp;
  DivisorMagic div[sizeof...(P) + 1] = {};
  (divisor_of<Divides, I, weft_std::remove_cv_t<P>>(div, args), ...);
  run_loop<Kernel, SetTls, weft_std::remove_cv_t<P>...>(
      L, div, begin, end, *static_cast<const weft_std::remove_cv_t<P>*>(args[I])...);
}

template <auto Kernel, bool SetTls, unsigned long long Divides = 0>
inline void run(void* const* args, const Launch* l, size_t begin, size_t end) noexcept {
  run_range<Kernel, SetTls, Divides>(Kernel, weft_std::make_integer_sequence<int, kernel_traits<decltype(Kernel)>::arity>{},
                            args, l, begin, end);
}

template <auto Kernel>
constexpr KernelInfo info() noexcept {
  return kernel_traits<decltype(Kernel)>::info();
}

// ---- work-groups: kernels that meet at barriers (dialect/group_fission.hpp) ---------------
// Such a kernel is split at its barriers into regions; each region runs as a loop over the
// work-items of one group, and the variables that live across a barrier are kept in arrays
// with one element per work-item. A launch's unit is then a group: [begin, end) count groups.

/// One group's place in the launch: its id per dimension and its first global id.
struct GroupIds {
  size_t grp[3];
  size_t base[3];
};

/// The groups one call runs.
struct Groups {
  const Launch* l;
  size_t begin, end;
  WEFT_INLINE GroupIds ids(size_t g) const {
    const size_t n0 = l->gsize[0] / l->lsize[0], n1 = l->gsize[1] / l->lsize[1];
    const size_t g0 = g % n0, rest = g / n0, g1 = rest % n1, g2 = rest / n1;
    return {{g0, g1, g2},
            {l->goff[0] + g0 * l->lsize[0], l->goff[1] + g1 * l->lsize[1], l->goff[2] + g2 * l->lsize[2]}};
  }
};

/// The work-item functions inside a region: the item's local ids are the loop's counters.
struct GroupItem {
  const Launch* l;
  GroupIds g;
  size_t lid[3];
  size_t gid0;  // the loop's counter
  WEFT_INLINE size_t global_id(unsigned d) const { return d == 0 ? gid0 : d < 3 ? g.base[d] + lid[d] : 0; }
  WEFT_INLINE size_t global_size(unsigned d) const { return d < 3 ? l->gsize[d] : 1; }
  WEFT_INLINE size_t global_offset(unsigned d) const { return d < 3 ? l->goff[d] : 0; }
  WEFT_INLINE size_t local_size(unsigned d) const { return d < 3 ? l->lsize[d] : 1; }
  WEFT_INLINE size_t local_id(unsigned d) const { return d < 3 ? lid[d] : 0; }
  WEFT_INLINE size_t group_id(unsigned d) const { return d < 3 ? g.grp[d] : 0; }
  WEFT_INLINE size_t num_groups(unsigned d) const { return d < 3 ? l->gsize[d] / l->lsize[d] : 1; }
  WEFT_INLINE unsigned work_dim() const { return l->work_dim; }
  WEFT_INLINE WorkItem work_item() const { return {{gid0, g.base[1] + lid[1], g.base[2] + lid[2]}, l}; }
};

template <class T>
using unconst_t = weft_std::remove_cv_t<T>;

/// The per-work-item arrays of one call: one block each, freed when the call returns.
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    for (unsigned i = 0; i < count_; ++i) weft_host_free(blocks_[i]);
  }
  template <class T>
  T* alloc(size_t n) {
    // 64-byte aligned and rounded, so that each array starts on its own cache line.
    const size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    void* p = weft_host_alloc(bytes ? bytes : 64);
    if (count_ < 256) blocks_[count_++] = p;
    return static_cast<T*>(p);
  }

 private:
  void* blocks_[256];
  unsigned count_ = 0;
};

template <class F>
struct group_kernel_traits;
template <class... P>
struct group_kernel_traits<void (*)(Groups, P...)> {
  static constexpr size_t arity = sizeof...(P);
  static constexpr KernelInfo info() noexcept {
    static_assert(sizeof...(P) <= 64, "a kernel may have at most 64 parameters");
    return KernelInfo{static_cast<uint32_t>(sizeof...(P)), {static_cast<uint32_t>(sizeof(P))...}};
  }
};

template <auto Kernel, class... P, int... I>
WEFT_INLINE void run_groups_of(void (*)(Groups, P...), weft_std::int_sequence<I...>, void* const* args,
                               const Launch* lp, size_t begin, size_t end) noexcept {
  const Launch L = *lp;
  Kernel(Groups{&L, begin, end}, *static_cast<const weft_std::remove_cv_t<P>*>(args[I])...);
}

/// Runs groups [begin, end) of a launch of a group kernel: its int-counter instance where the
/// global ids in x fit an int, else its 64-bit one.
template <auto Narrow, auto Wide>
inline void run_groups(void* const* args, const Launch* l, size_t begin, size_t end) noexcept {
  if (l->goff[0] + l->gsize[0] <= static_cast<size_t>(__INT_MAX__)) {
    run_groups_of<Narrow>(Narrow, weft_std::make_integer_sequence<int, group_kernel_traits<decltype(Narrow)>::arity>{},
                          args, l, begin, end);
  } else {
    run_groups_of<Wide>(Wide, weft_std::make_integer_sequence<int, group_kernel_traits<decltype(Wide)>::arity>{},
                        args, l, begin, end);
  }
}

template <auto Kernel>
constexpr KernelInfo group_info() noexcept {
  return group_kernel_traits<decltype(Kernel)>::info();
}

// ---- work-group functions (OpenCL C 2.0's collectives) in kernels split at barriers --------
// A collective's argument is stored per work-item in a slot; the first work-item of the
// region after it combines the slots once for the group (weft_host::Slot arrays come from
// the kernel's Scratch).
struct alignas(16) Slot {
  unsigned char b[16];
};
template <class T>
WEFT_INLINE void slot_put(Slot& s, T v) noexcept {
  static_assert(sizeof(T) <= sizeof(Slot), "work-group functions take scalars");
  __builtin_memcpy(s.b, &v, sizeof(T));
}
template <class T>
WEFT_INLINE T slot_get(const Slot& s) noexcept {
  T v;
  __builtin_memcpy(&v, s.b, sizeof(T));
  return v;
}
template <class T>
using unref_t = weft_std::remove_cvref_t<T>;

enum class GroupOp { add, min, max, any, all };
template <class T, GroupOp O>
WEFT_INLINE T group_combine(T a, T b) noexcept {
  if constexpr (O == GroupOp::add) return a + b;
  else if constexpr (O == GroupOp::min) return b < a ? b : a;
  else if constexpr (O == GroupOp::max) return a < b ? b : a;
  else if constexpr (O == GroupOp::any) return (a != 0 || b != 0) ? 1 : 0;
  else return (a != 0 && b != 0) ? 1 : 0;
}
template <class T, GroupOp O>
WEFT_INLINE T group_identity() noexcept {
  if constexpr (O == GroupOp::add || O == GroupOp::any) return T(0);
  else if constexpr (O == GroupOp::all) return T(1);
  else if constexpr (weft_std::is_integral_v<T>) {
    return O == GroupOp::min ? weft_std::numeric_limits<T>::max() : weft_std::numeric_limits<T>::min();
  } else {
    return O == GroupOp::min ? T(__builtin_inf()) : T(-__builtin_inf());
  }
}
template <class T, GroupOp O>
inline T group_reduce(Slot* w, size_t n, Slot& result, bool& done) noexcept {
  if (!done) {
    T acc = group_identity<T, O>();
    for (size_t i = 0; i < n; ++i) acc = group_combine<T, O>(acc, slot_get<T>(w[i]));
    slot_put(result, acc);
    done = true;
  }
  return slot_get<T>(result);
}
template <class T, GroupOp O, bool Inclusive>
inline T group_scan(Slot* w, size_t n, bool& done, size_t l) noexcept {
  if (!done) {
    T acc = group_identity<T, O>();
    for (size_t i = 0; i < n; ++i) {
      const T v = slot_get<T>(w[i]);
      const T next = group_combine<T, O>(acc, v);
      slot_put(w[i], Inclusive ? next : acc);
      acc = next;
    }
    done = true;
  }
  return slot_get<T>(w[l]);
}
template <class T>
WEFT_INLINE T group_broadcast(const Slot* w, const Launch& L, size_t x, size_t y = 0, size_t z = 0) noexcept {
  return slot_get<T>(w[(z * L.lsize[1] + y) * L.lsize[0] + x]);
}


}  // namespace weft_host

// ---- the dialect's spellings --------------------------------------------------------------
// Defined last: after this point `global`, `local`, `constant` and `private` are no longer
// ordinary identifiers. host_translate.cpp #undefs them before the generated launchers.
#define __kernel
#define kernel
#define __global
#define global
#define __constant
#define constant
#define __local
#define local
#define __private
#define private
#define __read_only
#define read_only
#define __write_only
#define write_only
#define __read_write
#define read_write
#define restrict __restrict
#define WEFT_HOST 1
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define HUGE_VALF (__builtin_huge_valf())
#define HUGE_VAL (__builtin_huge_val())
// What the host's libm returns for ilogb(0) and ilogb(NaN) (glibc: INT_MIN on x86).
#if defined(__x86_64__) || defined(__i386__)
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#else
#define FP_ILOGB0 (-2147483647)
#define FP_ILOGBNAN 2147483647
#endif
#define NULL __null
