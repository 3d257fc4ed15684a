// dask: issue 31's workloads on Dask, measured by bench/peers/dask_peer.py (its docstring has
// the details). The main case, "chain": T chunks per worker, each made on its worker (an arange
// and an offset), R rounds of y = sin(y + x) * 0.5 + 1 and a sum, timed in one weft
// process on each device (same chunks, no Dask), as dask.array with weft chunks on
// weft.dask.local_cluster (one worker process per device) and with NumPy chunks on the same
// cluster; the script prints the cluster's throughput as a share of N x one-process (the
// issue's 80% target). The second case, "from-numpy": (sin(x)*2+1).sum(0) and (x*2+1).sum(0)
// over a matrix made by NumPy on the client. The devices are those asked for (--device
// cuda:0,cuda:1 starts a worker on each; else every device). --n sets the chain's elements per
// chunk (default: sized from the devices' measured speed so that the chain case takes about
// 60 s, the script's --budget-s); the script's own options (--rounds, --tasks-per-worker,
// --budget-s, --json ...) are there when it is run by hand. It skips when Dask or weft's Python
// package is missing. Its lines show as it prints them (run_peer), so a run cut short by a
// timeout still shows what it measured.
#include "bench/harness.hpp"

namespace weft::bench {
namespace {

void run_dask(Context& ctx) {
  std::string devices;
  for (const Device& dev : ctx.devices()) devices += (devices.empty() ? "" : ",") + dev.selector();
  ctx.progress("dask: each device in one process, then a LocalCluster of " + std::to_string(ctx.devices().size()) +
               " worker process(es), one per device");
  std::string why;
  std::vector<std::string> args{"--devices", devices, "--repeat", std::to_string(ctx.options().repeat)};
  if (ctx.options().n) {
    args.push_back("--chunk");
    args.push_back(std::to_string(*ctx.options().n));
  }
  if (!run_peer(ctx, "dask", "dask_peer.py", args, &why)) ctx.progress("dask did not run: " + why);
}

const SuiteRegistration dask_registration{
    {"dask", "Dask with weft chunks made on a worker per device, vs one process and NumPy chunks",
     run_dask}};

}  // namespace
}  // namespace weft::bench
