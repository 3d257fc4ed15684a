// overlap: a bandwidth-bound pipeline (y = 2x + 1 on float32 chunks) over host data, the serial
// loop (upload a chunk, compute, download, next chunk) against weft.stream_map, which overlaps
// the upload of chunk i+1, the computation of chunk i and the download of chunk i-1 on two copy
// queues beside the array queue. Measured from Python (weft_python.py); 1 GiB on devices with
// their own memory, 64 MiB where device memory is host memory (--n sets the bytes). Issue 30
// asks stream_map at least 1.8x faster than the serial loop on a lent GPU.
#include "bench/harness.hpp"

namespace weft::bench {
namespace {

void run_overlap(Context& ctx) {
  std::vector<std::string> args{"overlap", std::to_string(ctx.n_or(0)), std::to_string(ctx.options().repeat)};
  for (const Device& dev : ctx.devices()) args.push_back(dev.selector());
  std::string why;
  if (!run_peer(ctx, "overlap", "weft_python.py", args, &why)) ctx.progress("weft Python did not run: " + why);
}

const SuiteRegistration overlap_registration{
    {"overlap", "upload/compute/download pipeline: serial loop vs weft.stream_map", run_overlap}};

}  // namespace
}  // namespace weft::bench
