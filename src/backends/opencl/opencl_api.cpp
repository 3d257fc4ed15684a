#include "backends/opencl/opencl_api.hpp"

#include <dlfcn.h>

#include <mutex>
#include <optional>

#include "weft/error.hpp"

namespace weft::detail::cl {

namespace {

struct Loaded {
  Api api;
  std::string problem;  // empty when loaded
};

Loaded load() {
  Loaded out;
  // The ICD loader stays loaded for the life of the process: drivers keep threads and
  // callbacks that must not outlive it.
  void* lib = ::dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = ::dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    out.problem = "libOpenCL.so.1 not found (install an OpenCL ICD loader and a driver, "
                  "e.g. Debian's ocl-icd-libopencl1 and pocl-opencl-icd)";
    return out;
  }
#define WEFT_CL_FN(ret, name, ...)                                              \
  out.api.name = reinterpret_cast<decltype(out.api.name)>(::dlsym(lib, #name)); \
  if (!out.api.name && out.problem.empty()) out.problem = "libOpenCL.so.1 lacks " #name " (OpenCL 1.2 needed)";
#include "backends/opencl/opencl_functions.inc"
#undef WEFT_CL_FN
  return out;
}

}  // namespace

const Api& api() {
  static const Loaded loaded = load();
  if (!loaded.problem.empty()) throw Unsupported(loaded.problem);
  return loaded.api;
}

std::string error_name(cl_int code) {
  switch (code) {
#define N(c, v) case v: return #c;
    N(CL_SUCCESS, 0)
    N(CL_DEVICE_NOT_FOUND, -1)
    N(CL_DEVICE_NOT_AVAILABLE, -2)
    N(CL_COMPILER_NOT_AVAILABLE, -3)
    N(CL_MEM_OBJECT_ALLOCATION_FAILURE, -4)
    N(CL_OUT_OF_RESOURCES, -5)
    N(CL_OUT_OF_HOST_MEMORY, -6)
    N(CL_PROFILING_INFO_NOT_AVAILABLE, -7)
    N(CL_MEM_COPY_OVERLAP, -8)
    N(CL_IMAGE_FORMAT_MISMATCH, -9)
    N(CL_IMAGE_FORMAT_NOT_SUPPORTED, -10)
    N(CL_BUILD_PROGRAM_FAILURE, -11)
    N(CL_MAP_FAILURE, -12)
    N(CL_MISALIGNED_SUB_BUFFER_OFFSET, -13)
    N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, -14)
    N(CL_COMPILE_PROGRAM_FAILURE, -15)
    N(CL_LINKER_NOT_AVAILABLE, -16)
    N(CL_LINK_PROGRAM_FAILURE, -17)
    N(CL_DEVICE_PARTITION_FAILED, -18)
    N(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, -19)
    N(CL_INVALID_VALUE, -30)
    N(CL_INVALID_DEVICE_TYPE, -31)
    N(CL_INVALID_PLATFORM, -32)
    N(CL_INVALID_DEVICE, -33)
    N(CL_INVALID_CONTEXT, -34)
    N(CL_INVALID_QUEUE_PROPERTIES, -35)
    N(CL_INVALID_COMMAND_QUEUE, -36)
    N(CL_INVALID_HOST_PTR, -37)
    N(CL_INVALID_MEM_OBJECT, -38)
    N(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, -39)
    N(CL_INVALID_IMAGE_SIZE, -40)
    N(CL_INVALID_SAMPLER, -41)
    N(CL_INVALID_BINARY, -42)
    N(CL_INVALID_BUILD_OPTIONS, -43)
    N(CL_INVALID_PROGRAM, -44)
    N(CL_INVALID_PROGRAM_EXECUTABLE, -45)
    N(CL_INVALID_KERNEL_NAME, -46)
    N(CL_INVALID_KERNEL_DEFINITION, -47)
    N(CL_INVALID_KERNEL, -48)
    N(CL_INVALID_ARG_INDEX, -49)
    N(CL_INVALID_ARG_VALUE, -50)
    N(CL_INVALID_ARG_SIZE, -51)
    N(CL_INVALID_KERNEL_ARGS, -52)
    N(CL_INVALID_WORK_DIMENSION, -53)
    N(CL_INVALID_WORK_GROUP_SIZE, -54)
    N(CL_INVALID_WORK_ITEM_SIZE, -55)
    N(CL_INVALID_GLOBAL_OFFSET, -56)
    N(CL_INVALID_EVENT_WAIT_LIST, -57)
    N(CL_INVALID_EVENT, -58)
    N(CL_INVALID_OPERATION, -59)
    N(CL_INVALID_GL_OBJECT, -60)
    N(CL_INVALID_BUFFER_SIZE, -61)
    N(CL_INVALID_MIP_LEVEL, -62)
    N(CL_INVALID_GLOBAL_WORK_SIZE, -63)
    N(CL_INVALID_PROPERTY, -64)
    N(CL_INVALID_IMAGE_DESCRIPTOR, -65)
    N(CL_INVALID_COMPILER_OPTIONS, -66)
    N(CL_INVALID_LINKER_OPTIONS, -67)
    N(CL_INVALID_DEVICE_PARTITION_COUNT, -68)
    N(CL_PLATFORM_NOT_FOUND_KHR, -1001)
#undef N
    default: return "CL_ERROR_" + std::to_string(code);
  }
}

void check(cl_int code, const char* call) {
  if (code == CL_SUCCESS) return;
  const std::string name = error_name(code);
  const std::string msg = std::string(call) + " failed: " + name + " (" + std::to_string(code) + ")";
  if (code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_HOST_MEMORY) {
    throw OutOfMemory(msg, 0, name, call);
  }
  throw DeviceError(msg, name, call);
}

}  // namespace weft::detail::cl
