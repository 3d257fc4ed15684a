// A kernel that keeps a device busy for a while, for tests of concurrency between queues.
__kernel void busy(__global float* x, int iterations)
{
    int i = get_global_id(0);
    float v = x[i];
    for (int k = 0; k < iterations; ++k) v = v * 0.999999f + 0.5f;
    x[i] = v;
}

// A work-group reduction with __local memory passed as an argument.
__kernel void group_sum(__global const float* x, __global float* out, __local float* scratch)
{
    int lid = get_local_id(0);
    int n = get_local_size(0);
    scratch[lid] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s /= 2) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = scratch[0];
}
