// dask: issue 31's workloads on Dask, measured by bench/peers/dask_peer.py:
// (sin(x) * 2 + 1).sum(axis=0) (arithmetic-bound) and (x * 2 + 1).sum(axis=0) (memory-bound)
// over a float32 matrix of about N elements (16M by default), in one weft process on each
// device, as dask.array with weft chunks on weft.dask.local_cluster (one worker process per
// device, the chunks persisted there), and as dask.array with NumPy chunks on the same
// cluster. The devices are those asked for (--device, else every device). The script says how
// the cluster compares with the devices' one-process throughput summed and with the NumPy
// chunks; it skips when Dask or weft's Python package is missing.
#include "bench/harness.hpp"

namespace weft::bench {
namespace {

void run_dask(Context& ctx) {
  std::string devices;
  for (const Device& dev : ctx.devices()) devices += (devices.empty() ? "" : ",") + dev.selector();
  ctx.progress("dask: each device in one process, then a LocalCluster of " + std::to_string(ctx.devices().size()) +
               " worker process(es), one per device");
  std::string why;
  const std::vector<std::string> args{std::to_string(ctx.n_or(std::size_t{1} << 24)),
                                      std::to_string(ctx.options().repeat), devices};
  if (!run_peer(ctx, "dask", "dask_peer.py", args, &why)) ctx.progress("dask did not run: " + why);
}

const SuiteRegistration registration{
    {"dask", "Dask with weft chunks, a worker per device, vs one process and NumPy chunks",
     run_dask}};

}  // namespace
}  // namespace weft::bench
