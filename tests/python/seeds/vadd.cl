// The HandsOnOpenCL course's vadd.cl, which shared/seeds/001's "Hello world in PyOpenCL"
// reads with open('vadd.cl') (the slides call it with a fourth argument, the count).
__kernel void vadd(__global const float *a,
                   __global const float *b,
                   __global float *c,
                   const unsigned int count)
{
    int gid = get_global_id(0);
    if (gid < count)
        c[gid] = a[gid] + b[gid];
}
