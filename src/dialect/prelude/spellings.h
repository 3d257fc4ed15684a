// The dialect's macros every C++-based translation shares (the host's and CUDA's): work-item
// functions as members of the work-item in scope (weft_wi), OpenCL's version macros, and the
// limits and constants OpenCL C defines (no standard header is included for them: it would
// define many more names than OpenCL C does). Pasted after a backend's prelude, before the
// user's source; the prelude defines INFINITY, NAN, HUGE_VAL(F), FP_ILOGB0/NAN and NULL.
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define get_work_dim() weft_wi.work_dim()
#define get_global_id(d) weft_wi.global_id(d)
#define get_global_size(d) weft_wi.global_size(d)
#define get_global_offset(d) weft_wi.global_offset(d)
#define get_local_id(d) weft_wi.local_id(d)
#define get_local_size(d) weft_wi.local_size(d)
#define get_group_id(d) weft_wi.group_id(d)
#define get_num_groups(d) weft_wi.num_groups(d)
#define get_enqueued_local_size(d) weft_wi.local_size(d)
#define __OPENCL_VERSION__ 120
#define __OPENCL_C_VERSION__ 120
#define CL_VERSION_1_0 100
#define CL_VERSION_1_1 110
#define CL_VERSION_1_2 120
#define __ENDIAN_LITTLE__ 1
#define __WEFT__ 1
#define M_E_F 2.71828182845904523536f
#define M_LOG2E_F 1.44269504088896340736f
#define M_LOG10E_F 0.434294481903251827651f
#define M_LN2_F 0.693147180559945309417f
#define M_LN10_F 2.30258509299404568402f
#define M_PI_F 3.14159265358979323846f
#define M_PI_2_F 1.57079632679489661923f
#define M_PI_4_F 0.785398163397448309616f
#define M_1_PI_F 0.318309886183790671538f
#define M_2_PI_F 0.636619772367581343076f
#define M_2_SQRTPI_F 1.12837916709551257390f
#define M_SQRT2_F 1.41421356237309504880f
#define M_SQRT1_2_F 0.707106781186547524401f
#define M_E 2.718281828459045090796
#define M_LOG2E 1.442695040888963387005
#define M_LOG10E 0.434294481903251816668
#define M_LN2 0.693147180559945286227
#define M_LN10 2.302585092994045901094
#define M_PI 3.141592653589793115998
#define M_PI_2 1.570796326794896557999
#define M_PI_4 0.785398163397448278999
#define M_1_PI 0.318309886183790691216
#define M_2_PI 0.636619772367581382433
#define M_2_SQRTPI 1.128379167095512558561
#define M_SQRT2 1.414213562373095145475
#define M_SQRT1_2 0.707106781186547572737
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-127 - 1)
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32767 - 1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define ULONG_MAX 0xffffffffffffffffUL
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP +38
#define FLT_MAX_EXP +128
#define FLT_MIN_10_EXP -37
#define FLT_MIN_EXP -125
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define MAXFLOAT FLT_MAX
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define DBL_MAX_10_EXP +308
#define DBL_MAX_EXP +1024
#define DBL_MIN_10_EXP -307
#define DBL_MIN_EXP -1021
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52
