# shared/seeds/002's device fission ("splitting one physical device into many logical ones ...
# to reserve some computational power") and its many queues, written as a PyOpenCL user
# writes them (the slide gives no code), with the import line changed. One sub-device keeps a
# compute unit for urgent work while the other runs; a UserEvent holds work back until the host
# says go; a barrier fences a queue. Devices that cannot be split (the host backend, GPUs)
# raise weft.Unsupported at create_sub_devices, as PyOpenCL raises there; the test expects that.
import numpy as np
import weft as cl
import weft.array as cl_array

ctx = cl.create_some_context()
device = ctx.devices[0]
by_counts = device.create_sub_devices(
    [cl.device_partition_property.BY_COUNTS, 1, 1, cl.device_partition_property.BY_COUNTS_LIST_END])
assert [d.compute_units for d in by_counts] == [1, 1]
sub_devices = device.create_sub_devices([cl.device_partition_property.EQUALLY, 1])
urgent, bulk = sub_devices[0], sub_devices[1]

src = "__kernel void scale(__global float *x, float f) { x[get_global_id(0)] *= f; }"
queues = {}
for name, dev in (("urgent", urgent), ("bulk", bulk)):
    sub_ctx = cl.Context([dev])
    queue = cl.CommandQueue(sub_ctx)
    prg = cl.Program(sub_ctx, src).build()
    queues[name] = (queue, prg)

go = cl.UserEvent(ctx)
queue, prg = queues["bulk"]
x = cl_array.to_device(queue, np.ones(100000, dtype=np.float32))
evt = prg.scale(queue, x.shape, None, x.data, np.float32(3), wait_for=[go])
assert evt.command_execution_status != cl.command_execution_status.COMPLETE
fence = cl.enqueue_barrier(queue)
after = cl.enqueue_marker(queue)

uqueue, uprg = queues["urgent"]
y = cl_array.zeros(uqueue, 1000, dtype=np.float32) + 1
uprg.scale(uqueue, y.shape, None, y.data, np.float32(2)).wait()  # runs while bulk waits for go
assert (y.get() == 2).all()
assert not after.done

go.set_status(cl.command_execution_status.COMPLETE)
after.wait()
assert fence.command_execution_status == cl.command_execution_status.COMPLETE
assert (x.get() == 3).all()
# A sub-device's selector names it while it lives (the latest partition's, when there are several).
assert cl.Device(bulk.selector) == bulk
print("seed 002 fission: ok")
