"""The three PyOpenCL kernels of shared/seeds/000 ("external functions within kernels") with weft.

1. inefficient_kernel: b[i] = external_function(a[i]), run 100 times, copying b back to the
   host after every launch;
2. efficient_kernel: the same with an asynchronous upload and a single copy back at the end;
3. local_mem_kernel: the same through a __local tile of LOCAL_SIZE elements with barriers.

The device is weft.default_device() (WEFT_DEVICE). Changes from the seed:
- the seed never defines external_function(); here it is an OpenCL C helper in the same
  source (x * x + 0.5f), which is how an "external" function reaches an OpenCL kernel;
- LOCAL_SIZE is a build option (-DLOCAL_SIZE=256) instead of a Python variable the kernel
  source cannot see;
- weft.Program(device, src).build() and prg.name(queue, global, local, *args) replace
  cl.Program(ctx, src).build() and queue.enqueue_nd_range_kernel(...);
  weft.enqueue_copy(queue, dest, src, is_blocking=False) replaces cl.enqueue_copy(...)
  (the seed's queue.enqueue_copy(queue, ...) is not a PyOpenCL call);
- the host backend has no work-group barriers, so there kernel 3 is reported as skipped
  (weft.Unsupported); run it with WEFT_DEVICE=opencl:0:0 (PoCL) or a GPU;
- each variant's result is checked against NumPy.
"""
import numpy as np

import weft

N = 1024 * 1024
LOCAL_SIZE = 256
REPEATS = 100

kernel_code = """
float external_function(float x)
{
    return x * x + 0.5f;
}

__kernel void inefficient_kernel(__global const float* a, __global float* b) {
    int i = get_global_id(0);
    b[i] = external_function(a[i]);
}

__kernel void efficient_kernel(__global const float* a, __global float* b) {
    int i = get_global_id(0);
    b[i] = external_function(a[i]);
}

__kernel void local_mem_kernel(__global const float* a, __global float* b) {
    __local float local_a[LOCAL_SIZE];
    int i = get_global_id(0);
    int local_id = get_local_id(0);
    int group_id = get_group_id(0);

    // Load data into local memory
    local_a[local_id] = a[i];
    barrier(CLK_LOCAL_MEM_FENCE);

    // Process data in local memory
    local_a[local_id] = external_function(local_a[local_id]);
    barrier(CLK_LOCAL_MEM_FENCE);

    // Store results back to global memory
    b[i] = local_a[local_id];
}
"""

device = weft.default_device()
queue = weft.Queue(device, profiling=True)  # the times printed below
program = weft.Program(device, kernel_code).build(f"-DLOCAL_SIZE={LOCAL_SIZE}")

a_cpu = np.random.rand(N).astype(np.float32)
expected = a_cpu * a_cpu + np.float32(0.5)

# Example 1: inefficient, copies b back to the host after every launch.
a_gpu = weft.Buffer(device, a_cpu.nbytes)
b_gpu = weft.Buffer(device, a_cpu.nbytes)
weft.enqueue_copy(queue, a_gpu, a_cpu)
for i in range(REPEATS):
    event = program.inefficient_kernel(queue, (N,), None, a_gpu, b_gpu)
    event.wait()
    b_cpu = np.empty_like(a_cpu)
    weft.enqueue_copy(queue, b_cpu, b_gpu)
    assert np.allclose(b_cpu, expected), f"inefficient_kernel: wrong result at iteration {i}"
print(f"inefficient_kernel: {REPEATS} launches + {REPEATS} copies back, correct")

# Example 2: asynchronous upload, one copy back at the end.
a_gpu = weft.Buffer(device, a_cpu.nbytes)
b_gpu = weft.Buffer(device, a_cpu.nbytes)
event = weft.enqueue_copy(queue, a_gpu, a_cpu, is_blocking=False)
for i in range(REPEATS):
    event_kernel = program.efficient_kernel(queue, (N,), None, a_gpu, b_gpu)
    event_kernel.wait()
event.wait()  # wait for the initial copy
b_cpu = np.empty_like(a_cpu)
weft.enqueue_copy(queue, b_cpu, b_gpu)
assert np.allclose(b_cpu, expected), "efficient_kernel: wrong result"
print(f"efficient_kernel: {REPEATS} launches + 1 copy back, correct "
      f"(last launch {event_kernel.profile.seconds * 1e3:.3f} ms)")

# Example 3: local memory (needs work-group barriers).
try:
    local_mem_kernel = program.local_mem_kernel
except weft.Unsupported as e:
    print(f"local_mem_kernel: skipped on {device.selector} ({str(e).splitlines()[0]})")
else:
    b_gpu = weft.Buffer(device, a_cpu.nbytes)
    ev = local_mem_kernel(queue, (N,), (LOCAL_SIZE,), a_gpu, b_gpu)
    b_cpu = np.empty_like(a_cpu)
    weft.enqueue_copy(queue, b_cpu, b_gpu, wait_for=[ev])
    assert np.allclose(b_cpu, expected), "local_mem_kernel: wrong result"
    print(f"local_mem_kernel: work-groups of {LOCAL_SIZE}, correct ({ev.profile.seconds * 1e3:.3f} ms)")

print(f"three kernels on {device.selector} ({device.name}): OK")
