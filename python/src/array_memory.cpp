// The array layer's device state for Python: the memory pool (its statistics, its cache given
// back), the counts of copies and launches, and the in-order queue arrays use on each device.
#include "arrays.hpp"

namespace weftpy {

void register_array_memory(nb::module_& m) {
  m.def("memory_stats", [](nb::handle device) {
    const weft::MemoryStats st = weft::memory_stats(device_arg(device));
    nb::dict d;
    d["in_use"] = st.in_use;
    d["cached"] = st.cached;
    d["peak"] = st.peak;
    d["limit"] = st.limit;
    d["allocations"] = st.allocations;
    d["reuses"] = st.reuses;
    return d;
  }, nb::arg("device").none() = nb::none(),
        "The array memory pool on device: bytes in arrays (in_use), kept for reuse (cached), the peak, "
        "WEFT_MEMORY_LIMIT (0: none), blocks asked of the driver and requests served from the cache.");
  m.def("free_cached_memory", [](nb::handle device) {
    const weft::Device dev = device_arg(device);
    nb::gil_scoped_release unlocked;
    weft::free_cached_memory(dev);
  }, nb::arg("device").none() = nb::none(), "Gives the pool's cached blocks on device back to the driver.");
  m.def("transfer_stats", [] {
    const weft::TransferStats t = weft::transfer_stats();
    nb::dict d;
    d["to_device"] = t.to_device;
    d["to_host"] = t.to_host;
    d["between_devices"] = t.between_devices;
    d["bytes"] = t.bytes;
    return d;
  }, "Copies the array layer has made since the process began: host to device, device to host, between "
     "devices, and their bytes.");
  m.def("synchronize", [](nb::handle device) {
    const weft::Device dev = device_arg(device);
    PyEvent e{weft::array_queue(dev).marker(), weft::array_queue(dev)};
    wait_interruptible(e);
  }, nb::arg("device").none() = nb::none(), "Waits for the array work queued on device.");
  m.def("array_queue", [](nb::handle device) { return weft::array_queue(device_arg(device)); },
        nb::arg("device").none() = nb::none(), "The in-order queue arrays use on device.");
  m.def("elementwise_launches", [](nb::handle device) { return weft::elementwise_launches(device_arg(device)); },
        nb::arg("device").none() = nb::none(), "How many kernels the array layer has launched on device.");
}

}  // namespace weftpy
