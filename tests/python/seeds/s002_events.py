# shared/seeds/002 ("Asynchronous and event-driven PyOpenCL programming"), its slide of code, as
# written, with the import line changed (import pyopencl -> import weft as pyopencl). The slide
# shows no setup: the lines under "(setup)" make the context, queue, arrays and the `increase`
# program it uses (the slide calls the buffer both agpu and a_gpu). Its last line,
# enqueue_copy(queue) with neither destination nor source, raises TypeError in PyOpenCL and
# in weft alike; the "(check)" lines expect that.
import numpy
import weft as pyopencl

# (setup)
context = pyopencl.create_some_context()
queue = pyopencl.CommandQueue(context)
a = numpy.arange(1000, dtype=numpy.float32)
mf = pyopencl.mem_flags
a_gpu = pyopencl.Buffer(context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
agpu = a_gpu
program = pyopencl.Program(context, """
__kernel void increase(__global float *a) { a[get_global_id(0)] += 1.0f; }
""").build()

event = pyopencl.enqueue_copy(queue, a, agpu)

event = program.increase(queue, a.shape, None, a_gpu)

# later code
queue0 = pyopencl.CommandQueue(context)
queue1 = pyopencl.CommandQueue(context)
# (check)
try:
    event = pyopencl.enqueue_copy(queue)
except TypeError:
    pass
else:
    raise AssertionError("enqueue_copy(queue) should raise TypeError, as PyOpenCL's does")

# (check) the kernel ran after the copy; events wait and tell their status, as PyOpenCL's
event.wait()
assert event.command_execution_status == pyopencl.command_execution_status.COMPLETE
out = numpy.empty_like(a)
pyopencl.enqueue_copy(queue, out, a_gpu)
assert numpy.array_equal(out, numpy.arange(1000, dtype=numpy.float32) + 1)
print("seed 002 events: ok")
