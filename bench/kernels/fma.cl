// d = a*b + c on float32, four elements per work-item through float4 loads and stores (16
// bytes each: the widest single access on GPUs, and the host compiler vectorizes further).
// The same buffers come twice: as float4 for the n4 = n / 4 full vectors, as float for the
// last n % 4 elements, which the first work-items also take.
__kernel void fma4(__global const float4 *a, __global const float4 *b, __global const float4 *c,
                   __global float4 *d, int n4,
                   __global const float *as, __global const float *bs, __global const float *cs,
                   __global float *ds, int n)
{
    int i = get_global_id(0);
    if (i < n4) d[i] = a[i] * b[i] + c[i];
    int t = 4 * n4 + i;
    if (t < n) ds[t] = as[t] * bs[t] + cs[t];
}
