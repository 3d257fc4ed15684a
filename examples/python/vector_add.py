"""The slides' vector addition (shared/seeds/001, "Hello world in PyOpenCL") with weft.

The device is the one WEFT_DEVICE names (weft.default_device(); the host CPU when unset):

    WEFT_DEVICE=opencl:0:0 python3 examples/python/vector_add.py

Changes from the PyOpenCL original:
- no context: weft.Program takes the device, weft.Queue(device) is the command queue;
- the kernel source is inline instead of read from vadd.cl, and takes the element count
  (the original passes numpy.uint32(N) to a three-parameter kernel) so the work-items
  past N do nothing;
- explicit buffers and copies are weft.Buffer and weft.enqueue_copy, as in PyOpenCL.
"""
import numpy as np

import weft

N = 1024

src = """
__kernel void vadd(__global const float *a,
                   __global const float *b,
                   __global float *c,
                   const unsigned int count)
{
    int gid = get_global_id(0);
    if (gid < count)
        c[gid] = a[gid] + b[gid];
}
"""

# create the device, queue and program
device = weft.default_device()
queue = weft.Queue(device, profiling=True)  # the kernel time printed below
prg = weft.Program(device, src).build()

# create host arrays
h_a = np.random.rand(N).astype("float32")
h_b = np.random.rand(N).astype("float32")
h_c = np.empty(N).astype("float32")

# create device buffers and copy the inputs over
d_a = weft.Buffer(device, h_a.nbytes)
d_b = weft.Buffer(device, h_b.nbytes)
d_c = weft.Buffer(device, h_c.nbytes)
weft.enqueue_copy(queue, d_a, h_a)
weft.enqueue_copy(queue, d_b, h_b)

# run the kernel: global size N, work-groups of 8
evt = prg.vadd(queue, h_a.shape, (8,), d_a, d_b, d_c, np.uint32(N))

# return the results (a blocking copy, after the kernel on the same in-order queue)
weft.enqueue_copy(queue, h_c, d_c)

assert np.allclose(h_a + h_b, h_c)

# The same with weft arrays (pyopencl.array style): the kernel takes the arrays themselves.
a = weft.asarray(h_a, device=device)
b = weft.asarray(h_b, device=device)
c = weft.empty((N,), np.float32, device=device)
prg.vadd(queue, (N,), None, a, b, c, N).wait()
assert np.array_equal(c.get(), h_a + h_b)
assert np.array_equal((a + b).get(), h_a + h_b)

timing_s = 1e-9 * (evt.profile.end - evt.profile.start)
print(f"vadd on {device.selector} ({device.name}): {N} elements correct, kernel {timing_s * 1e6:.1f} us")
