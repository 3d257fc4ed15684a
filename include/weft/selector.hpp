// Device selectors: the strings WEFT_DEVICE, WEFT_BACKENDS and --device accept.
//
//   host           the native CPU backend
//   opencl         the first OpenCL device;  opencl:gpu, opencl:cpu, opencl:accelerator
//   opencl:P:D     OpenCL platform P, device D (as `weft devices` numbers them); opencl:P
//   cuda           the first CUDA device;    cuda:N
//   auto           the device expected to finish first (today: a GPU if present, else host)
//   D/S            sub-device S of device D's latest partition (Device::partition), while
//                  it exists: opencl:0:0/1, opencl:cpu/0, opencl:0:0/1/0 (a sub-device's own)
//
//   auto sel = weft::DeviceSelector::parse("opencl:0:1");
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

enum class DeviceType : std::uint8_t { cpu, gpu, accelerator, other };

/// "cpu", "gpu", "accelerator", "other".
WEFT_API std::string_view to_string(DeviceType t) noexcept;

class WEFT_API DeviceSelector {
 public:
  enum class Kind : std::uint8_t {
    automatic,        // auto
    host,             // host
    opencl_any,       // opencl
    opencl_type,      // opencl:cpu | opencl:gpu | opencl:accelerator
    opencl_platform,  // opencl:P
    opencl_index,     // opencl:P:D
    cuda_any,         // cuda
    cuda_index,       // cuda:N
  };

  /// Parses a selector; throws ConfigError listing the valid forms when text is malformed.
  static DeviceSelector parse(std::string_view text);
  /// The valid forms, for error messages.
  static std::string_view valid_forms() noexcept;

  Kind kind() const noexcept { return kind_; }
  DeviceType type() const noexcept { return type_; }
  int platform() const noexcept { return platform_; }
  int index() const noexcept { return index_; }
  const std::string& text() const noexcept { return text_; }
  /// The sub-device indices after the device ("opencl:0:0/1/0" -> {1, 0}); empty for a device.
  const std::vector<int>& sub_devices() const noexcept { return sub_; }
  /// The backend this selector names ("host", "opencl", "cuda"), or "" for auto.
  std::string_view backend() const noexcept;

 private:
  static DeviceSelector parse_device(std::string_view raw, std::string_view text);

  Kind kind_ = Kind::automatic;
  DeviceType type_ = DeviceType::other;
  int platform_ = -1;
  int index_ = -1;
  std::string text_ = "auto";
  std::vector<int> sub_;
};

}  // namespace weft
