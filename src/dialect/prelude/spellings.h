// The dialect's macros every C++-based translation shares (the host's and CUDA's): work-item
// functions as members of the work-item in scope (weft_wi), OpenCL's version macros and the
// float constants. Pasted after a backend's prelude, before the user's source.
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
