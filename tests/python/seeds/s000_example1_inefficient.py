# shared/seeds/000, "Example 1: Inefficient Kernel with Excessive Data Transfer", as written,
# with the import line changed (pyopencl -> weft). The seed elides two parts ("# ... (Context
# creation, etc.) ..." and "# ... (Program creation, compilation, etc.) ..."); the lines under
# "(filled in)" are those parts, in PyOpenCL's own calls. Lines under "(check)" verify the result.
# The seed's queue.enqueue_nd_range_kernel(kernel, global, local, *args) is not a PyOpenCL
# call (PyOpenCL has cl.enqueue_nd_range_kernel(queue, kernel, ...)); weft accepts both.
import weft as cl
import numpy as np

# ... (Context creation, etc.) ...
# (filled in)
context = cl.create_some_context()
queue = cl.CommandQueue(context)
b_gpu = cl.Buffer(context, cl.mem_flags.WRITE_ONLY, 1024 * 1024 * 4)

# Inefficient: Transferring large array repeatedly
a_cpu = np.random.rand(1024*1024).astype(np.float32)
a_gpu = cl.Buffer(context, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=a_cpu)

kernel_code = """
__kernel void inefficient_kernel(__global const float* a, __global float* b) {
    int i = get_global_id(0);
    b[i] = external_function(a[i]);
}
"""

# ... (Program creation, compilation, etc.) ...
# (filled in: the seed never defines external_function; an OpenCL C helper before the kernel)
program = cl.Program(context, "float external_function(float x) { return x * x + 0.5f; }\n" + kernel_code).build()

# Transferring 'a_cpu' again inside loop
for i in range(100):
    event = queue.enqueue_nd_range_kernel(program.inefficient_kernel, (1024*1024,), None, a_gpu, b_gpu)
    event.wait()
    # ... process b ...
    # Inefficient: transferring results back to CPU
    b_cpu = np.empty_like(a_cpu)
    cl.enqueue_copy(queue, b_cpu, b_gpu)

# (check)
assert np.allclose(b_cpu, a_cpu * a_cpu + 0.5)
print("seed 000 example 1: ok")
