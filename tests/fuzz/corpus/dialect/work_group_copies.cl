// OpenCL 1.2's asynchronous copies between global and __local memory, on every device (the
// host backend runs the group's one copy between the regions around it).
__kernel void copies(__global const float* in, __global float* out) {
  __local float tile[32];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 32, 32, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[31 - get_local_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(tile, in + get_group_id(0) * 32, 16, 2, 0);
  wait_group_events(1, &e);
  if (get_local_id(0) < 16) out[get_global_id(0)] += tile[get_local_id(0)];
}
