# shared/seeds/001, the five steps of a host program ("1. Define the platform" to "5. Retrieve
# data"), slide after slide, with the import lines changed (import pyopencl -> import weft as
# pyopencl; import pyopencl.array -> import weft.array). The slides describe step 4's call and
# step 5 in words; the lines under "(from the slide's words)" are those calls. LENGTH is the
# slides' vector length; they never give it a value.
import weft as pyopencl

LENGTH = 1024  # (the slides' LENGTH)

# 1. Define the platform
ctx = pyopencl.create_some_context()

platforms = pyopencl.get_platforms()
devices = platforms[0].get_devices()
ctx = pyopencl.Context((devices[0],))

# (profiling asked for: step 4 reads evt.profile, which PyOpenCL, as weft, refuses on a queue
# made without PROFILING_ENABLE, as the slide's is)
queue = pyopencl.CommandQueue(ctx, properties=pyopencl.command_queue_properties.PROFILING_ENABLE)

# 2. Create and build the program
src = '''__kernel void vadd(__global const float *a,
    __global const float *b,
    __global float *c)
{
    int gid = get_global_id(0);
    c[gid] = a[gid] + b[gid];
}'''

prg = pyopencl.Program(ctx, src)

prg = prg.build()

# 3. Setup memory objects
import numpy

h_a = numpy.random.random(LENGTH).astype(numpy.float32)

h_b = numpy.random.random(LENGTH).astype(numpy.float32)

h_c = numpy.empty((LENGTH,), dtype=numpy.float32)

import weft.array

d_a = pyopencl.array.to_device(queue, h_a)

d_b = pyopencl.array.to_device(queue, h_b)

d_c = pyopencl.array.empty(queue, (LENGTH,), dtype='float32')

# 4. Launch the kernel
kernel = prg.vadd
# (from the slide's words: queue, global size, work-group size, then the arrays' .data)
evt = kernel(queue, (LENGTH,), (8,), d_a.data, d_b.data, d_c.data)
evt.wait()

timing_s = 1e-9*(evt.profile.end - evt.profile.start)

# 5. Retrieve data
# (from the slide's words: get() copies back and waits; set() enqueues a copy to the device)
h_c = d_c.get()
assert numpy.allclose(h_c, h_a + h_b)
d_a.set(h_b)
assert numpy.array_equal(d_a.get(), h_b)
assert timing_s >= 0
print("seed 001 five steps: ok")
