// The array layer's device state for Python: the memory pool (its statistics, its cache given
// back), the counts of copies and launches, and the in-order queue arrays use on each device.
#include "arrays.hpp"

#include <nanobind/ndarray.h>

#include "weft/result_memory.hpp"

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
        
        "The array memory pool on a device, in bytes and counts.\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "device : weft.Device, str or None, optional\n"
        "    The device (None: the default device).\n"
        "\n"
        "Returns\n"
        "-------\n"
        "dict of str to int\n"
        "    in_use (bytes in arrays), cached (kept for reuse), peak, limit (WEFT_MEMORY_LIMIT, 0:\n"
        "    none), allocations (blocks asked of the driver) and reuses (requests the cache served).\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> sorted(weft.memory_stats(\"host\"))\n"
        "['allocations', 'cached', 'in_use', 'limit', 'peak', 'reuses']");
  m.def("free_cached_memory", [](nb::handle device) {
    const weft::Device dev = device_arg(device);
    nb::gil_scoped_release unlocked;
    weft::free_cached_memory(dev);
    weft::free_result_memory();
  }, nb::arg("device").none() = nb::none(), 
        "Gives the pool's cached blocks on a device back to the driver, and frees the idle host\n"
        "blocks large results are copied back into (weft::result_memory).\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "device : weft.Device, str or None, optional\n"
        "    The device (None: the default device).\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> weft.free_cached_memory(\"host\")\n"
        ">>> weft.memory_stats(\"host\")[\"cached\"]\n"
        "0");
  // Host memory for a large result copied back from device (weft::result_memory: reused,
  // pinned on CUDA) as a 1-D uint8 NumPy array whose base gives the block back to the pool
  // when the last array over it goes (python/weft/_array.py views it with the result's dtype).
  m.def("_result_block", [](nb::handle device, std::size_t bytes) {
    const weft::Device dev = device_arg(device);
    std::shared_ptr<void> block;
    {
      nb::gil_scoped_release unlocked;
      block = weft::result_memory(dev, bytes);
    }
    void* data = block.get();
    auto holder = std::make_unique<std::shared_ptr<void>>(std::move(block));
    nb::capsule owner(holder.get(), [](void* p) noexcept {
      const std::unique_ptr<std::shared_ptr<void>> gone(static_cast<std::shared_ptr<void>*>(p));
    });
    holder.release();  // the capsule owns it now
    return nb::ndarray<nb::numpy, std::uint8_t, nb::ndim<1>>(data, {bytes}, owner);
  }, nb::arg("device").none(), nb::arg("bytes"));
  m.attr("_RESULT_BLOCK_MIN_BYTES") = weft::kResultMemoryMinBytes;
  m.def("_idle_result_memory", &weft::idle_result_memory);
  m.def("transfer_stats", [] {
    const weft::TransferStats t = weft::transfer_stats();
    nb::dict d;
    d["to_device"] = t.to_device;
    d["to_host"] = t.to_host;
    d["between_devices"] = t.between_devices;
    d["bytes"] = t.bytes;
    return d;
  }, 
        "The copies the array layer has made since the process began.\n"
        "\n"
        "Returns\n"
        "-------\n"
        "dict of str to int\n"
        "    to_device, to_host, between_devices (counts) and bytes.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> sorted(weft.transfer_stats())\n"
        "['between_devices', 'bytes', 'to_device', 'to_host']");
  m.def("synchronize", [](nb::handle device) {
    const weft::Device dev = device_arg(device);
    PyEvent e{weft::array_queue(dev).marker(), weft::array_queue(dev)};
    wait_interruptible(e);
  }, nb::arg("device").none() = nb::none(), 
        "Waits for the array work queued on a device (Ctrl-C interrupts).\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "device : weft.Device, str or None, optional\n"
        "    The device (None: the default device).\n"
        "\n"
        "Raises\n"
        "------\n"
        "weft.DeviceError\n"
        "    A command failed.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> a = weft.ones(1000) * 2\n"
        ">>> weft.synchronize(a.device)");
  m.def("array_queue", [](nb::handle device) { return weft::array_queue(device_arg(device)); },
        nb::arg("device").none() = nb::none(), 
        "The in-order queue array operations use on a device (kernels you launch on it are ordered\n"
        "with them).\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "device : weft.Device, str or None, optional\n"
        "    The device (None: the default device).\n"
        "\n"
        "Returns\n"
        "-------\n"
        "weft.Queue\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> weft.array_queue(\"host\").device.selector\n"
        "'host'");
  m.def("elementwise_launches", [](nb::handle device) { return weft::elementwise_launches(device_arg(device)); },
        nb::arg("device").none() = nb::none(), 
        "How many kernels the array layer has launched on a device: a way to see fusion.\n"
        "On the host, an expression a process meets for the first time may run step by step on\n"
        "prebuilt kernels (one per operation) while its fused kernel compiles\n"
        "(WEFT_HOST_PREBUILT); the example shows the fused kernel.\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "device : weft.Device, str or None, optional\n"
        "    The device (None: the default device).\n"
        "\n"
        "Returns\n"
        "-------\n"
        "int\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> a = weft.asarray(np.ones(4))\n"
        ">>> before = weft.elementwise_launches()\n"
        ">>> _ = ((a + 1) * 2).get()\n"
        ">>> weft.elementwise_launches() - before\n"
        "1");
}

}  // namespace weftpy
