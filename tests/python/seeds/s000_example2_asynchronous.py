# shared/seeds/000, "Example 2: Improved Kernel with Asynchronous Data Transfer", as written,
# with the import line changed (pyopencl -> weft) and the elided parts filled in (see
# s000_example1_inefficient.py). The seed's queue.enqueue_copy(queue, dest, src, ...) repeats
# the queue (PyOpenCL has no such method); weft's Queue.enqueue_copy accepts the repeat.
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
__kernel void efficient_kernel(__global const float* a, __global float* b) {
    int i = get_global_id(0);
    b[i] = external_function(a[i]);
}
"""

# ... (Program creation, compilation, etc.) ...
# (filled in)
program = cl.Program(context, "float external_function(float x) { return x * x + 0.5f; }\n" + kernel_code).build()

# Asynchronous data transfer
event = queue.enqueue_copy(queue, a_gpu, a_cpu, is_blocking=False)

for i in range(100):
    event_kernel = queue.enqueue_nd_range_kernel(program.efficient_kernel, (1024*1024,), None, a_gpu, b_gpu)
    event_kernel.wait()
    # ... process data on GPU if possible...

event.wait() #Wait for the initial copy
b_cpu = np.empty_like(a_cpu)
cl.enqueue_copy(queue, b_cpu, b_gpu)

# (check)
assert np.allclose(b_cpu, a_cpu * a_cpu + 0.5)
print("seed 000 example 2: ok")
