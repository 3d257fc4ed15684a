// The dialect core, part 4: the dialect's type names (uchar ... ulong16, half) in the
// namespace user source is compiled in. Pasted after core_conversions.hpp.
namespace weft_kernel {

using weft_core::weft_as;
using weft_core::weft_convert;
using weft_core::weft_make;
using weft_core::weft_vload;
using weft_core::weft_vstore;

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
#ifdef WEFT_HALF
typedef WEFT_HALF half;
#endif

#define WEFT_VEC_TYPES(T)                 \
  typedef weft_core::vec<T, 2> T##2;      \
  typedef weft_core::vec<T, 3> T##3;      \
  typedef weft_core::vec<T, 4> T##4;      \
  typedef weft_core::vec<T, 8> T##8;      \
  typedef weft_core::vec<T, 16> T##16;
typedef signed char weft_schar;
typedef weft_core::vec<signed char, 2> char2;
typedef weft_core::vec<signed char, 3> char3;
typedef weft_core::vec<signed char, 4> char4;
typedef weft_core::vec<signed char, 8> char8;
typedef weft_core::vec<signed char, 16> char16;
WEFT_VEC_TYPES(uchar)
WEFT_VEC_TYPES(short)
WEFT_VEC_TYPES(ushort)
WEFT_VEC_TYPES(int)
WEFT_VEC_TYPES(uint)
WEFT_VEC_TYPES(long)
WEFT_VEC_TYPES(ulong)
WEFT_VEC_TYPES(float)
WEFT_VEC_TYPES(double)
#ifdef WEFT_HALF
WEFT_VEC_TYPES(half)
#endif
#undef WEFT_VEC_TYPES

}  // namespace weft_kernel
