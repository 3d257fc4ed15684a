# PyOpenCL's copy_if recipe, from its documentation ("Custom Scan Algorithms", Usage Example),
# and pyopencl.algorithm's copy_if kernel (the count written at i+1 == N), with the import lines
# changed (import pyopencl as cl -> import weft as cl; pyopencl.scan -> weft.scan).
import numpy as np
import weft as cl
from weft.scan import GenericScanKernel

ctx = cl.create_some_context()
queue = cl.CommandQueue(ctx)
a = cl.array.arange(queue, 10000, dtype=np.int32)

knl = GenericScanKernel(
        ctx, np.int32,
        arguments="__global int *ary, __global int *out",
        input_expr="(ary[i] > 300) ? 1 : 0",
        scan_expr="a+b", neutral="0",
        output_statement="""
            if (prev_item != item) out[item-1] = ary[i];
            """)

out = a.copy()
knl(a, out)

a_host = a.get()
out_host = a_host[a_host > 300]

assert (out_host == out.get()[:len(out_host)]).all()

# pyopencl.algorithm.copy_if's kernel: the same scan, and the count at the last element.
predicate = "ary[i] % 3 == 0"
copy_if = GenericScanKernel(
        ctx, np.uint32,
        arguments="__global int *ary, __global int *out, __global unsigned long *count",
        input_expr="(%s) ? 1 : 0" % predicate,
        scan_expr="a+b", neutral="0",
        output_statement="""
            if (prev_item != item) out[item-1] = ary[i];
            if (i+1 == N) *count = item;
            """)
out = cl.array.zeros(queue, a.shape, np.int32)
count = cl.array.empty(queue, (), np.uint64)
copy_if(a, out, count, queue=queue)
expected = a_host[a_host % 3 == 0]
assert int(count.get()) == len(expected)
assert (out.get()[:len(expected)] == expected).all()
print("copy_if: ok")
