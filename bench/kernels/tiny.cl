// The smallest useful kernel: one work-item bumps a counter. Its time is all launch
// overhead, which is what the launch suite measures.
__kernel void tiny(__global float *x)
{
    x[get_global_id(0)] += 1.0f;
}
