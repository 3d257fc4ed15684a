// A plain kernel and two that need work-group synchronization: a local-memory reduction with
// barriers (as in shared/seeds/000), which the host backend splits at its barriers, and one
// that only reaches barrier() through a helper function, which the host refuses.
#define LOCAL_SIZE 64

void sync_group(void)
{
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void scale(__global float *x, float factor)
{
    int i = get_global_id(0);
    x[i] *= factor;
}

__kernel void block_sum(__global const float *x, __global float *out)
{
    __local float part[LOCAL_SIZE];
    int lid = get_local_id(0);
    part[lid] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = LOCAL_SIZE / 2; s > 0; s /= 2) {
        if (lid < s) part[lid] += part[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = part[0];
}

__kernel void via_helper(__global float *x)
{
    x[get_global_id(0)] += 1.0f;
    sync_group();
}
