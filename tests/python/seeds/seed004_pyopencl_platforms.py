# Seed 004, the PyOpenCL platform, device, context and queue slides, as written but for the
# import line.
import weft as cl

platforms_list = cl.get_platforms()
devices_list = platforms_list[0].get_devices()
context = cl.Context(devices=devices_list)
queue = cl.CommandQueue(context)

# --- checks (not in the seed)
assert len(platforms_list) >= 1 and len(devices_list) >= 1
print(platforms_list, devices_list, queue)
