// OpenCL C 2.0's work-group collectives, which the host backend and CUDA provide (OpenCL
// devices only where their driver compiles OpenCL C 2.0; weft builds OpenCL C 1.2).
__kernel void collectives(__global const int* in, __global int* out, __global float* fout) {
  const int g = get_global_id(0);
  const int v = in[g];
  out[g * 8 + 0] = work_group_reduce_add(v);
  out[g * 8 + 1] = work_group_reduce_min(v);
  out[g * 8 + 2] = work_group_reduce_max(v);
  out[g * 8 + 3] = work_group_scan_inclusive_add(v);
  out[g * 8 + 4] = work_group_scan_exclusive_add(v);
  out[g * 8 + 5] = work_group_broadcast(v, 0);
  out[g * 8 + 6] = work_group_any(v > 90) != 0;
  out[g * 8 + 7] = work_group_all(v >= 0) != 0;
  fout[g] = work_group_scan_inclusive_max((float)v * 0.5f);
}
