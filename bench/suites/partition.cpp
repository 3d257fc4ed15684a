// partition: weft.partition, argpartition (kth = n / 2) and topk(a, 100), the O(n) radix select
// of python/weft/_partition.py, beside weft.sort and argsort of the same keys in the same run
// (float32 and uint32, 2^24 keys by default), measured from Python (weft_python.py); with
// --compare, NumPy's np.partition, np.argpartition and np.sort of the same sizes.
#include "bench/harness.hpp"

namespace weft::bench {
namespace {

void run_partition(Context& ctx) {
  const std::string n = std::to_string(ctx.n_or(std::size_t{1} << 24));
  const std::string repeat = std::to_string(ctx.options().repeat);
  std::vector<std::string> args{"partition", n, repeat};
  for (const Device& dev : ctx.devices()) args.push_back(dev.selector());
  std::string why;
  if (!run_peer(ctx, "partition", "weft_python.py", args, &why)) ctx.progress("weft Python did not run: " + why);
  if (ctx.options().compare && !run_peer(ctx, "partition", "numpy_peer.py", {"partition", n, repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration partition_registration{
    {"partition", "partition/argpartition/topk (radix select) vs sort; NumPy's np.partition",
     run_partition}};

}  // namespace
}  // namespace weft::bench
