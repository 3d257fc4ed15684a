# shared/seeds/000, "Example 3: Using Local Memory for Optimized Access", as written, with the
# import line changed (pyopencl -> weft) and the elided parts filled in (see
# s000_example1_inefficient.py). The kernel source uses LOCAL_SIZE, which a Python variable
# cannot reach: the filled-in build passes it as -DLOCAL_SIZE, as a PyOpenCL user must too.
# It runs on every device: the host backend splits the kernel at its barriers into loops over
# the work-items of a group (src/dialect/group_fission.hpp).
import weft as cl
import numpy as np

# ... (Context creation, etc.) ...
# (filled in)
context = cl.create_some_context()
queue = cl.CommandQueue(context)

a_cpu = np.random.rand(1024*1024).astype(np.float32)
a_gpu = cl.Buffer(context, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=a_cpu)
b_gpu = cl.Buffer(context, cl.mem_flags.WRITE_ONLY, a_cpu.nbytes)

kernel_code = """
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

# Define LOCAL_SIZE appropriately for your GPU
LOCAL_SIZE = 256

# ... (Program creation, compilation, etc.) ...
# (filled in)
program = cl.Program(context, "float external_function(float x) { return x * x + 0.5f; }\n" + kernel_code).build(
    options=[f"-DLOCAL_SIZE={LOCAL_SIZE}"])

queue.enqueue_nd_range_kernel(program.local_mem_kernel, (1024*1024,), (LOCAL_SIZE,), a_gpu, b_gpu)

# (check)
b_cpu = np.empty_like(a_cpu)
cl.enqueue_copy(queue, b_cpu, b_gpu)
assert np.allclose(b_cpu, a_cpu * a_cpu + 0.5)
print("seed 000 example 3: ok")
