// Vector addition, exactly as the course slides write it (shared/seeds/001): one work-item
// per element, no bounds check, so the global size is the element count.
__kernel void vadd(__global const float *a,
                   __global const float *b,
                   __global float *c)
{
    int gid = get_global_id(0);
    c[gid] = a[gid] + b[gid];
}
