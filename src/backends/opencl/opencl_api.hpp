// The slice of the OpenCL 1.2 API weft uses, declared here and loaded from the ICD loader
// (libOpenCL.so.1) with dlopen at run time: no header or link-time dependency, so one build
// runs on machines with and without OpenCL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace weft::detail::cl {

using cl_int = std::int32_t;
using cl_uint = std::uint32_t;
using cl_ulong = std::uint64_t;
using cl_bool = cl_uint;
using cl_bitfield = cl_ulong;
using cl_device_type = cl_bitfield;
using cl_mem_flags = cl_bitfield;
using cl_map_flags = cl_bitfield;
using cl_command_queue_properties = cl_bitfield;
using cl_device_partition_property = std::intptr_t;
using cl_context_properties = std::intptr_t;
using cl_platform_info = cl_uint;
using cl_device_info = cl_uint;
using cl_program_info = cl_uint;
using cl_program_build_info = cl_uint;
using cl_kernel_work_group_info = cl_uint;
using cl_event_info = cl_uint;
using cl_profiling_info = cl_uint;

using cl_platform_id = struct _cl_platform_id*;
using cl_device_id = struct _cl_device_id*;
using cl_context = struct _cl_context*;
using cl_command_queue = struct _cl_command_queue*;
using cl_mem = struct _cl_mem*;
using cl_program = struct _cl_program*;
using cl_kernel = struct _cl_kernel*;
using cl_event = struct _cl_event*;

inline constexpr cl_int CL_SUCCESS = 0;
inline constexpr cl_int CL_DEVICE_NOT_FOUND = -1;
inline constexpr cl_int CL_MEM_OBJECT_ALLOCATION_FAILURE = -4;
inline constexpr cl_int CL_OUT_OF_RESOURCES = -5;
inline constexpr cl_int CL_OUT_OF_HOST_MEMORY = -6;
inline constexpr cl_int CL_PROFILING_INFO_NOT_AVAILABLE = -7;
inline constexpr cl_int CL_BUILD_PROGRAM_FAILURE = -11;
inline constexpr cl_int CL_INVALID_BUILD_OPTIONS = -43;
inline constexpr cl_int CL_INVALID_KERNEL_NAME = -46;
inline constexpr cl_int CL_INVALID_ARG_SIZE = -51;
inline constexpr cl_int CL_PLATFORM_NOT_FOUND_KHR = -1001;

inline constexpr cl_bool CL_FALSE = 0;
inline constexpr cl_bool CL_TRUE = 1;

inline constexpr cl_platform_info CL_PLATFORM_VERSION = 0x0901;
inline constexpr cl_platform_info CL_PLATFORM_NAME = 0x0902;
inline constexpr cl_platform_info CL_PLATFORM_VENDOR = 0x0903;

inline constexpr cl_device_type CL_DEVICE_TYPE_CPU = 1 << 1;
inline constexpr cl_device_type CL_DEVICE_TYPE_GPU = 1 << 2;
inline constexpr cl_device_type CL_DEVICE_TYPE_ACCELERATOR = 1 << 3;
inline constexpr cl_device_type CL_DEVICE_TYPE_ALL = 0xFFFFFFFF;

inline constexpr cl_device_info CL_DEVICE_TYPE = 0x1000;
inline constexpr cl_device_info CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
inline constexpr cl_device_info CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
inline constexpr cl_device_info CL_DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010;
inline constexpr cl_device_info CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
inline constexpr cl_device_info CL_DEVICE_LOCAL_MEM_SIZE = 0x1023;
inline constexpr cl_device_info CL_DEVICE_QUEUE_PROPERTIES = 0x102A;
inline constexpr cl_device_info CL_DEVICE_NAME = 0x102B;
inline constexpr cl_device_info CL_DEVICE_VENDOR = 0x102C;
inline constexpr cl_device_info CL_DRIVER_VERSION = 0x102D;
inline constexpr cl_device_info CL_DEVICE_VERSION = 0x102F;
inline constexpr cl_device_info CL_DEVICE_EXTENSIONS = 0x1030;
inline constexpr cl_device_info CL_DEVICE_DOUBLE_FP_CONFIG = 0x1032;
inline constexpr cl_device_info CL_DEVICE_PARTITION_MAX_SUB_DEVICES = 0x1043;

inline constexpr cl_device_partition_property CL_DEVICE_PARTITION_EQUALLY = 0x1086;
inline constexpr cl_device_partition_property CL_DEVICE_PARTITION_BY_COUNTS = 0x1087;
inline constexpr cl_device_partition_property CL_DEVICE_PARTITION_BY_COUNTS_LIST_END = 0x0;
inline constexpr cl_context_properties CL_CONTEXT_PLATFORM = 0x1084;

inline constexpr cl_command_queue_properties CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE = 1 << 0;
inline constexpr cl_command_queue_properties CL_QUEUE_PROFILING_ENABLE = 1 << 1;

inline constexpr cl_mem_flags CL_MEM_READ_WRITE = 1 << 0;
inline constexpr cl_mem_flags CL_MEM_ALLOC_HOST_PTR = 1 << 4;
inline constexpr cl_map_flags CL_MAP_READ = 1 << 0;
inline constexpr cl_map_flags CL_MAP_WRITE = 1 << 1;

inline constexpr cl_program_info CL_PROGRAM_NUM_DEVICES = 0x1162;
inline constexpr cl_program_info CL_PROGRAM_DEVICES = 0x1163;
inline constexpr cl_program_info CL_PROGRAM_BINARY_SIZES = 0x1165;
inline constexpr cl_program_info CL_PROGRAM_BINARIES = 0x1166;
inline constexpr cl_program_info CL_PROGRAM_KERNEL_NAMES = 0x1168;
inline constexpr cl_program_build_info CL_PROGRAM_BUILD_LOG = 0x1183;
inline constexpr cl_kernel_work_group_info CL_KERNEL_WORK_GROUP_SIZE = 0x11B0;
inline constexpr cl_kernel_work_group_info CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE = 0x11B3;
inline constexpr cl_kernel_work_group_info CL_KERNEL_PRIVATE_MEM_SIZE = 0x11B4;

inline constexpr cl_event_info CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3;
inline constexpr cl_int CL_COMPLETE = 0x0;
inline constexpr cl_int CL_RUNNING = 0x1;
inline constexpr cl_int CL_SUBMITTED = 0x2;
inline constexpr cl_int CL_QUEUED = 0x3;
inline constexpr cl_profiling_info CL_PROFILING_COMMAND_QUEUED = 0x1280;
inline constexpr cl_profiling_info CL_PROFILING_COMMAND_SUBMIT = 0x1281;
inline constexpr cl_profiling_info CL_PROFILING_COMMAND_START = 0x1282;
inline constexpr cl_profiling_info CL_PROFILING_COMMAND_END = 0x1283;


/// The entry points, resolved once from the ICD loader.
struct Api {
#define WEFT_CL_FN(ret, name, ...) ret (*name)(__VA_ARGS__) = nullptr;
#include "backends/opencl/opencl_functions.inc"
#undef WEFT_CL_FN
};

/// The loaded API, or throws Unsupported("opencl: libOpenCL.so.1 not found ...").
const Api& api();

/// "CL_OUT_OF_RESOURCES" for -5, "CL_ERROR_-1234" for codes it does not know.
std::string error_name(cl_int code);

/// Throws DeviceError ("<call> failed: <name> (<code>)"; OutOfMemory for allocation codes).
void check(cl_int code, const char* call);

}  // namespace weft::detail::cl

namespace weft::detail {

/// An owned reference to an OpenCL object, released on destruction.
template <class T>
class ClRef {
 public:
  using Release = cl::cl_int (*)(T);
  ClRef() = default;
  ClRef(T handle, Release release) : handle_(handle), release_(release) {}
  ClRef(ClRef&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)), release_(o.release_) {}
  ClRef& operator=(ClRef&& o) noexcept {
    if (this != &o) {
      reset();
      handle_ = std::exchange(o.handle_, nullptr);
      release_ = o.release_;
    }
    return *this;
  }
  ClRef(const ClRef&) = delete;
  ClRef& operator=(const ClRef&) = delete;
  ~ClRef() { reset(); }
  T get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != nullptr; }
  void reset() noexcept {
    if (handle_ && release_) release_(handle_);
    handle_ = nullptr;
  }

 private:
  T handle_ = nullptr;
  Release release_ = nullptr;
};

}  // namespace weft::detail
