// The OpenCL backend: every platform and device the ICD loader offers (opencl_api), one
// context per platform holding all of its devices, queues (in-order or out-of-order,
// profiling) and events that wrap cl_event (opencl_queue), buffers (opencl_memory), programs
// built from dialect source through the program cache, binaries per device, and their
// kernels (opencl_compiler). This file: the backend, its devices and their registration.
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "backends/opencl/opencl_api.hpp"
#include "backends/opencl/opencl_compiler.hpp"
#include "backends/opencl/opencl_staging.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"

namespace weft::detail {

/// A context and the devices created in it (a platform's, or a partition's sub-devices).
struct OpenclContext {
  ClRef<cl::cl_context> context;
  std::string platform_name;
  std::string platform_version;
};

class OpenclDevice final : public DeviceImpl {
 public:
  OpenclDevice(DeviceInfo info, cl::cl_device_id id, std::shared_ptr<OpenclContext> context,
               bool out_of_order, bool sub_device);
  ~OpenclDevice() override;

  std::shared_ptr<QueueImpl> create_queue(const QueueOptions& options) override;
  BufferPtr allocate(std::size_t bytes) override;
  ProgramBuilder& program_builder() noexcept override { return builder_; }
  std::vector<std::shared_ptr<DeviceImpl>> partition_equally(unsigned compute_units) override;
  std::vector<std::shared_ptr<DeviceImpl>> partition_by_counts(std::span<const unsigned> counts) override;
  std::shared_ptr<PinnedImpl> allocate_pinned(std::size_t bytes) override;

  cl::cl_device_id id() const noexcept { return id_; }
  cl::cl_context context() const noexcept { return context_->context.get(); }
  const OpenclContext& context_info() const noexcept { return *context_; }
  /// Copies between the device and pageable host memory through pinned buffers, one stager
  /// per direction (used where device memory is not host memory).
  OpenclStaging& upload_staging() { return upload_staging_; }
  OpenclStaging& download_staging() { return download_staging_; }

 private:
  /// clCreateSubDevices with props (a zero-terminated list); how words the request in errors.
  std::vector<std::shared_ptr<DeviceImpl>> split(const cl::cl_device_partition_property* props, const std::string& how);

  cl::cl_device_id id_;
  std::shared_ptr<OpenclContext> context_;
  bool out_of_order_supported_;
  bool sub_device_;
  OpenclCompiler compiler_{*this};
  ProgramBuilder builder_{compiler_};
  std::mutex map_mutex_;
  ClRef<cl::cl_command_queue> map_queue_;  // maps pinned buffers; made on first use
  // The host ranges of this device's pinned buffers, which outlive it if they must.
  std::shared_ptr<PinnedRanges> pinned_ranges_ = std::make_shared<PinnedRanges>();
  // (after map_queue_: their pinned buffers are unmapped through it as they go)
  OpenclStaging upload_staging_{[this](std::size_t n) { return allocate_pinned(n); }, *pinned_ranges_};
  OpenclStaging download_staging_{[this](std::size_t n) { return allocate_pinned(n); }, *pinned_ranges_};
};

}  // namespace weft::detail
