#include "backends/opencl/opencl_device.hpp"

#include "backends/opencl/opencl_queue.hpp"
#include "core/log.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft::detail {

using namespace cl;

namespace {

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t size = 0;
  if (api().clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  api().clGetDeviceInfo(d, what, size, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  api().clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  std::size_t size = 0;
  if (api().clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  api().clGetPlatformInfo(p, what, size, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

DeviceInfo describe(cl_device_id d, const std::string& selector, const OpenclContext& ctx) {
  DeviceInfo info;
  info.name = device_string(d, CL_DEVICE_NAME);
  info.vendor = device_string(d, CL_DEVICE_VENDOR);
  info.backend = "opencl";
  info.selector = selector;
  info.platform = ctx.platform_name + " (" + ctx.platform_version + ")";
  info.driver_version = device_string(d, CL_DRIVER_VERSION) + " / " + device_string(d, CL_DEVICE_VERSION);
  const auto type = device_value<cl_device_type>(d, CL_DEVICE_TYPE);
  info.type = (type & CL_DEVICE_TYPE_GPU)           ? DeviceType::gpu
              : (type & CL_DEVICE_TYPE_CPU)         ? DeviceType::cpu
              : (type & CL_DEVICE_TYPE_ACCELERATOR) ? DeviceType::accelerator
                                                    : DeviceType::other;
  info.compute_units = device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.global_mem_bytes = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.local_mem_bytes = device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
  info.max_alloc_bytes = device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.max_work_group_size = device_value<std::size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  const std::string ext = device_string(d, CL_DEVICE_EXTENSIONS);
  info.fp16 = ext.find("cl_khr_fp16") != std::string::npos;
  info.fp64 = ext.find("cl_khr_fp64") != std::string::npos || device_value<cl_ulong>(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  if (ext.find("cl_nv_device_attribute_query") != std::string::npos) {
    // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV and _MINOR_NV (cl_ext.h's values).
    info.nvidia_arch = 10 * device_value<cl_uint>(d, 0x4000) + device_value<cl_uint>(d, 0x4001);
  }
  // Buffers are cl_mem handles (no address to share, even on a CPU device).
  DeviceCapabilities& caps = info.capabilities;
  caps.has_barriers = true;
  // NVIDIA's OpenCL compiles inline PTX (asm) in OpenCL C; the helpers need compute capability
  // 7.0. WEFT_OPENCL_PTX=0 keeps the OpenCL C plain (an escape hatch should a driver mistranslate).
  caps.inline_ptx = info.nvidia_arch >= 70 && config().opencl_ptx;
  caps.dlpack_device_type = 4;  // kDLOpenCL
  caps.reads_queue_together = info.type == DeviceType::cpu;
  // A GPU's small reads through pinned memory (a mapped CL_MEM_ALLOC_HOST_PTR buffer, which
  // NVIDIA's driver reads into by DMA): runtime/small_reads.hpp.
  caps.reads_through_pinned = info.type != DeviceType::cpu;
  return info;
}

std::shared_ptr<OpenclContext> make_context(cl_platform_id platform, const std::vector<cl_device_id>& devices,
                                            std::string name, std::string version) {
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int err = CL_SUCCESS;
  cl_context ctx = api().clCreateContext(props, static_cast<cl_uint>(devices.size()), devices.data(), nullptr,
                                         nullptr, &err);
  check(err, "clCreateContext");
  auto out = std::make_shared<OpenclContext>();
  out->context = ClRef<cl_context>(ctx, api().clReleaseContext);
  out->platform_name = std::move(name);
  out->platform_version = std::move(version);
  return out;
}

class OpenclBackend final : public BackendImpl {
 public:
  OpenclBackend() {
    const Api& a = api();  // throws Unsupported when the loader is missing
    cl_uint count = 0;
    const cl_int err = a.clGetPlatformIDs(0, nullptr, &count);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || count == 0) {
      throw Unsupported("the OpenCL loader found no platform (no ICD file in /etc/OpenCL/vendors?)");
    }
    check(err, "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(count);
    check(a.clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
    for (cl_uint p = 0; p < count; ++p) {
      const std::string pname = platform_string(platforms[p], CL_PLATFORM_NAME);
      cl_uint ndev = 0;
      if (a.clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &ndev) != CL_SUCCESS || ndev == 0) {
        WEFT_LOG_DEBUG("opencl platform " << p << " (" << pname << ") has no devices");
        continue;
      }
      std::vector<cl_device_id> ids(ndev);
      check(a.clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, ndev, ids.data(), nullptr), "clGetDeviceIDs");
      std::shared_ptr<OpenclContext> ctx;
      try {
        ctx = make_context(platforms[p], ids, pname, platform_string(platforms[p], CL_PLATFORM_VERSION));
      } catch (const Error& e) {
        WEFT_LOG_WARNING("opencl platform " << p << " (" << pname << "): " << e.what());
        continue;
      }
      for (cl_uint d = 0; d < ndev; ++d) {
        const std::string sel = "opencl:" + std::to_string(p) + ":" + std::to_string(d);
        const auto props = device_value<cl_command_queue_properties>(ids[d], CL_DEVICE_QUEUE_PROPERTIES);
        devices_.push_back(std::make_shared<OpenclDevice>(describe(ids[d], sel, *ctx), ids[d], ctx,
                                                          (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0,
                                                          false));
      }
    }
  }
  std::vector<std::shared_ptr<DeviceImpl>> devices() override { return devices_; }

 private:
  std::vector<std::shared_ptr<DeviceImpl>> devices_;
};

const BackendRegistration opencl_registration("opencl", 10, [] { return std::make_unique<OpenclBackend>(); });

}  // namespace

OpenclDevice::OpenclDevice(DeviceInfo info, cl_device_id id, std::shared_ptr<OpenclContext> context,
                           bool out_of_order, bool sub_device)
    : DeviceImpl(std::move(info)), id_(id), context_(std::move(context)),
      out_of_order_supported_(out_of_order), sub_device_(sub_device) {}

OpenclDevice::~OpenclDevice() {
  builder_.clear();
  if (sub_device_) api().clReleaseDevice(id_);
}

std::shared_ptr<QueueImpl> OpenclDevice::create_queue(const QueueOptions& options) {
  QueueOptions o = options;
  if (o.out_of_order && !out_of_order_supported_) {
    WEFT_LOG_DEBUG(info_.selector << " has no out-of-order queues; using an in-order one");
    o.out_of_order = false;
  }
  return std::make_shared<OpenclQueue>(std::static_pointer_cast<OpenclDevice>(shared_from_this()), o);
}

std::vector<std::shared_ptr<DeviceImpl>> OpenclDevice::partition_equally(unsigned compute_units) {
  if (device_value<cl_uint>(id_, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) < 2) return DeviceImpl::partition_equally(compute_units);
  const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                static_cast<cl_device_partition_property>(compute_units), 0};
  return split(props, "sub-devices of " + std::to_string(compute_units));
}

std::vector<std::shared_ptr<DeviceImpl>> OpenclDevice::partition_by_counts(std::span<const unsigned> counts) {
  if (device_value<cl_uint>(id_, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) < 2) return DeviceImpl::partition_by_counts(counts);
  std::vector<cl_device_partition_property> props{CL_DEVICE_PARTITION_BY_COUNTS};
  std::string how = "sub-devices of";
  for (unsigned c : counts) {
    props.push_back(static_cast<cl_device_partition_property>(c));
    how += " " + std::to_string(c);
  }
  props.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
  props.push_back(0);
  return split(props.data(), how + " compute units");
}

std::vector<std::shared_ptr<DeviceImpl>> OpenclDevice::split(const cl_device_partition_property* props,
                                                             const std::string& how) {
  const Api& a = api();
  cl_uint n = 0;
  const cl_int err = a.clCreateSubDevices(id_, props, 0, nullptr, &n);
  if (err != CL_SUCCESS || n == 0) {
    throw InvalidArgument(info_.selector + " (" + info_.name + ", " + std::to_string(info_.compute_units) +
                          " compute units) cannot be split into " + how + ": " + error_name(err));
  }
  std::vector<cl_device_id> ids(n);
  check(a.clCreateSubDevices(id_, props, n, ids.data(), nullptr), "clCreateSubDevices");
  // Sub-devices need a context of their own (the parent's holds the parent).
  cl_int cerr = CL_SUCCESS;
  cl_context ctx = a.clCreateContext(nullptr, n, ids.data(), nullptr, nullptr, &cerr);
  if (cerr != CL_SUCCESS) {
    for (auto id : ids) a.clReleaseDevice(id);
    check(cerr, "clCreateContext");
  }
  auto shared = std::make_shared<OpenclContext>();
  shared->context = ClRef<cl_context>(ctx, a.clReleaseContext);
  shared->platform_name = context_->platform_name;
  shared->platform_version = context_->platform_version;
  std::vector<std::shared_ptr<DeviceImpl>> out;
  for (cl_uint i = 0; i < n; ++i) {
    DeviceInfo info = describe(ids[i], info_.selector + "/" + std::to_string(i), *shared);
    out.push_back(std::make_shared<OpenclDevice>(std::move(info), ids[i], shared, out_of_order_supported_, true));
  }
  return out;
}

}  // namespace weft::detail
