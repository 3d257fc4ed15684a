#include "bench/driver_floor.hpp"

#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <functional>

#include "tools/support/numbers.hpp"
#include "weft/error.hpp"

namespace weft::bench {

namespace {

// A driver library and its entry points by name.
class Library {
 public:
  explicit Library(std::initializer_list<const char*> names) {
    for (const char* n : names) {
      if ((handle_ = ::dlopen(n, RTLD_NOW | RTLD_LOCAL))) break;
    }
  }
  // Never closed: drivers register exit handlers and threads and are not built to be unloaded.
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  explicit operator bool() const { return handle_ != nullptr; }
  template <class Fn>
  Fn* get(const char* symbol) const {
    auto* f = reinterpret_cast<Fn*>(::dlsym(handle_, symbol));
    if (!f) throw Error(std::string("the driver lacks ") + symbol);
    return f;
  }

 private:
  void* handle_ = nullptr;
};

// Runs `launches` calls of launch() then finish(), warmup + repeat times; the timed rounds'
// host time per launch.
std::vector<double> time_loop(std::size_t launches, int warmup, int repeat, const std::function<void()>& launch,
                              const std::function<void()>& finish) {
  std::vector<double> t;
  for (int r = 0; r < warmup + repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < launches; ++i) launch();
    finish();
    if (r >= warmup) {
      t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                  static_cast<double>(launches));
    }
  }
  return t;
}

// Releases a driver object on scope exit.
template <class T>
struct Owned {
  T value{};
  std::function<void(T)> release;
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (value && release) release(value);
  }
};

// --- OpenCL: the few declarations the loop needs (cl.h's, by value) ---
using cl_int = std::int32_t;
using cl_uint = std::uint32_t;
using cl_bitfield = std::uint64_t;
using cl_handle = void*;
constexpr cl_bitfield cl_device_type_all = 0xFFFFFFFF, cl_queue_profiling = 1 << 1, cl_mem_read_write = 1 << 0;

void cl_check(cl_int err, const char* what) {
  if (err != 0) throw Error(std::string("bare OpenCL loop: ") + what + " failed (" + std::to_string(err) + ")");
}

std::vector<double> opencl_floor(unsigned platform, unsigned device, std::size_t launches, int warmup, int repeat,
                                 std::string_view source) {
  const Library cl({"libOpenCL.so.1", "libOpenCL.so"});
  if (!cl) throw Error("bare OpenCL loop: libOpenCL.so.1 not found");
  const auto get_platforms = cl.get<cl_int(cl_uint, cl_handle*, cl_uint*)>("clGetPlatformIDs");
  const auto get_devices = cl.get<cl_int(cl_handle, cl_bitfield, cl_uint, cl_handle*, cl_uint*)>("clGetDeviceIDs");
  const auto create_context =
      cl.get<cl_handle(const std::intptr_t*, cl_uint, const cl_handle*, void*, void*, cl_int*)>("clCreateContext");
  const auto create_queue = cl.get<cl_handle(cl_handle, cl_handle, cl_bitfield, cl_int*)>("clCreateCommandQueue");
  const auto create_program =
      cl.get<cl_handle(cl_handle, cl_uint, const char**, const std::size_t*, cl_int*)>("clCreateProgramWithSource");
  const auto build = cl.get<cl_int(cl_handle, cl_uint, const cl_handle*, const char*, void*, void*)>("clBuildProgram");
  const auto create_kernel = cl.get<cl_handle(cl_handle, const char*, cl_int*)>("clCreateKernel");
  const auto create_buffer = cl.get<cl_handle(cl_handle, cl_bitfield, std::size_t, void*, cl_int*)>("clCreateBuffer");
  const auto set_arg = cl.get<cl_int(cl_handle, cl_uint, std::size_t, const void*)>("clSetKernelArg");
  const auto enqueue = cl.get<cl_int(cl_handle, cl_handle, cl_uint, const std::size_t*, const std::size_t*,
                                     const std::size_t*, cl_uint, const cl_handle*, cl_handle*)>("clEnqueueNDRangeKernel");
  const auto release_event = cl.get<cl_int(cl_handle)>("clReleaseEvent");
  const auto finish = cl.get<cl_int(cl_handle)>("clFinish");

  cl_uint count = 0;
  cl_check(get_platforms(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_handle> platforms(count);
  cl_check(get_platforms(count, platforms.data(), nullptr), "clGetPlatformIDs");
  if (platform >= count) throw Error("bare OpenCL loop: no platform " + std::to_string(platform));
  cl_uint ndev = 0;
  cl_check(get_devices(platforms[platform], cl_device_type_all, 0, nullptr, &ndev), "clGetDeviceIDs");
  std::vector<cl_handle> ids(ndev);
  cl_check(get_devices(platforms[platform], cl_device_type_all, ndev, ids.data(), nullptr), "clGetDeviceIDs");
  if (device >= ndev) throw Error("bare OpenCL loop: no device " + std::to_string(device));
  cl_handle id = ids[device];

  cl_int err = 0;
  Owned<cl_handle> context, queue, program, kernel, mem;
  const auto release = [&](const char* name) { return std::function<void(cl_handle)>(cl.get<cl_int(cl_handle)>(name)); };
  context.release = release("clReleaseContext");
  queue.release = release("clReleaseCommandQueue");
  program.release = release("clReleaseProgram");
  kernel.release = release("clReleaseKernel");
  mem.release = release("clReleaseMemObject");
  context.value = create_context(nullptr, 1, &id, nullptr, nullptr, &err);
  cl_check(err, "clCreateContext");
  queue.value = create_queue(context.value, id, cl_queue_profiling, &err);
  cl_check(err, "clCreateCommandQueue");
  const char* text = source.data();
  const std::size_t length = source.size();
  program.value = create_program(context.value, 1, &text, &length, &err);
  cl_check(err, "clCreateProgramWithSource");
  cl_check(build(program.value, 1, &id, "", nullptr, nullptr), "clBuildProgram");
  kernel.value = create_kernel(program.value, "tiny", &err);
  cl_check(err, "clCreateKernel");
  mem.value = create_buffer(context.value, cl_mem_read_write, 64, nullptr, &err);
  cl_check(err, "clCreateBuffer");
  cl_check(set_arg(kernel.value, 0, sizeof(cl_handle), &mem.value), "clSetKernelArg");
  const std::size_t global = 1;
  return time_loop(
      launches, warmup, repeat,
      [&] {
        cl_handle e = nullptr;
        enqueue(queue.value, kernel.value, 1, nullptr, &global, nullptr, 0, nullptr, &e);
        release_event(e);
      },
      [&] { finish(queue.value); });
}

// --- CUDA: a one-thread kernel from PTX (the driver compiles it for the GPU), no weft ---
constexpr const char* tiny_ptx = R"(
.version 6.0
.target sm_50
.address_size 64
.visible .entry tiny(.param .u64 x)
{
  .reg .b64 %rd<3>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [x];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.f32 %f1, [%rd2];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd2], %f2;
  ret;
}
)";

std::vector<double> cuda_floor(int ordinal, std::size_t launches, int warmup, int repeat) {
  const Library cu({"libcuda.so.1"});
  if (!cu) throw Error("bare CUDA loop: libcuda.so.1 not found");
  using Handle = void*;
  const auto init = cu.get<int(unsigned)>("cuInit");
  const auto device_get = cu.get<int(int*, int)>("cuDeviceGet");
  const auto retain = cu.get<int(Handle*, int)>("cuDevicePrimaryCtxRetain");
  const auto release_ctx = cu.get<int(int)>("cuDevicePrimaryCtxRelease_v2");
  const auto get_current = cu.get<int(Handle*)>("cuCtxGetCurrent");
  const auto set_current = cu.get<int(Handle)>("cuCtxSetCurrent");
  const auto load = cu.get<int(Handle*, const void*)>("cuModuleLoadData");
  const auto unload = cu.get<int(Handle)>("cuModuleUnload");
  const auto get_function = cu.get<int(Handle*, Handle, const char*)>("cuModuleGetFunction");
  const auto alloc = cu.get<int(std::uint64_t*, std::size_t)>("cuMemAlloc_v2");
  const auto free_mem = cu.get<int(std::uint64_t)>("cuMemFree_v2");
  const auto memset32 = cu.get<int(std::uint64_t, unsigned, std::size_t)>("cuMemsetD32_v2");
  const auto stream_create = cu.get<int(Handle*, unsigned)>("cuStreamCreate");
  const auto stream_destroy = cu.get<int(Handle)>("cuStreamDestroy_v2");
  const auto synchronize = cu.get<int(Handle)>("cuStreamSynchronize");
  const auto launch = cu.get<int(Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, Handle,
                                 void**, void**)>("cuLaunchKernel");
  const auto check = [](int r, const char* what) {
    if (r != 0) throw Error(std::string("bare CUDA loop: ") + what + " failed (" + std::to_string(r) + ")");
  };
  check(init(0), "cuInit");
  int dev = 0;
  check(device_get(&dev, ordinal), "cuDeviceGet");
  // The primary context, as weft uses it; whatever was current is current again after.
  Handle previous = nullptr, context = nullptr;
  get_current(&previous);
  check(retain(&context, dev), "cuDevicePrimaryCtxRetain");
  struct Restore {
    std::function<void()> fn;
    ~Restore() { fn(); }
  } restore{[&] {
    set_current(previous);
    release_ctx(dev);
  }};
  check(set_current(context), "cuCtxSetCurrent");
  Owned<Handle> module, stream;
  Owned<std::uint64_t> ptr;
  module.release = [&](Handle m) { unload(m); };
  stream.release = [&](Handle s) { stream_destroy(s); };
  ptr.release = [&](std::uint64_t p) { free_mem(p); };
  check(load(&module.value, tiny_ptx), "cuModuleLoadData");
  Handle function = nullptr;
  check(get_function(&function, module.value, "tiny"), "cuModuleGetFunction");
  check(alloc(&ptr.value, 64), "cuMemAlloc");
  check(memset32(ptr.value, 0, 16), "cuMemsetD32");
  check(stream_create(&stream.value, 1 /* CU_STREAM_NON_BLOCKING */), "cuStreamCreate");
  void* params[] = {&ptr.value};
  return time_loop(
      launches, warmup, repeat,
      [&] { launch(function, 1, 1, 1, 1, 1, 1, 0, stream.value, params, nullptr); },
      [&] { synchronize(stream.value); });
}

}  // namespace

std::optional<DriverFloor> driver_launch_floor(const std::string& selector, std::size_t launches, int warmup,
                                               int repeat, std::string_view opencl_source) {
  // The selector's own grammar (selector.hpp): cuda:N and opencl:P:D; sub-devices and
  // other backends have no bare loop here.
  const auto number = [&](std::string_view text) {
    return static_cast<unsigned>(tool::parse_integer("selector", text, 0, 1u << 20));
  };
  try {
    if (selector.rfind("cuda:", 0) == 0) {
      return DriverFloor{"bare cuLaunchKernel loop",
                         cuda_floor(static_cast<int>(number(std::string_view(selector).substr(5))), launches, warmup,
                                    repeat)};
    }
    if (selector.rfind("opencl:", 0) == 0) {
      const std::string_view rest = std::string_view(selector).substr(7);
      const auto colon = rest.find(':');
      if (colon == std::string_view::npos) return std::nullopt;
      return DriverFloor{"bare clEnqueueNDRangeKernel loop",
                         opencl_floor(number(rest.substr(0, colon)), number(rest.substr(colon + 1)), launches, warmup,
                                      repeat, opencl_source)};
    }
  } catch (const tool::UsageError&) {
    return std::nullopt;  // a sub-device ("opencl:0:0/1") or another form: no bare loop
  }
  return std::nullopt;
}

}  // namespace weft::bench
