# shared/seeds/001, "Hello world in PyOpenCL", as written, with the import line changed
# (import numpy, pyopencl -> import numpy, weft as pyopencl). vadd.cl lies beside this file.
import numpy, weft as pyopencl

N = 1024

# create context, queue and program
context = pyopencl.create_some_context()
queue = pyopencl.CommandQueue(context)
src = open('vadd.cl').read()
prg = pyopencl.Program(context, src).build()

# create host arrays
h_a = numpy.random.rand(N).astype('float32')
h_b = numpy.random.rand(N).astype('float32')
h_c = numpy.empty(N).astype('float32')

# create device buffers
mf = pyopencl.mem_flags
d_a = pyopencl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=h_a)
d_b = pyopencl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=h_b)
d_c = pyopencl.Buffer(context, mf.WRITE_ONLY, h_c.nbytes)

# run kernel
evt = prg.vadd(queue, h_a.shape, (8,), d_a, d_b, d_c, numpy.uint32(N))

# return results
pyopencl.enqueue_copy(queue, h_c, d_c)

assert numpy.allclose(h_a+h_b, h_c)
print("seed 001 hello world: ok")
