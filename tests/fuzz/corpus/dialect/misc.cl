// Atomics, by-value structs and scalar parameters of several types.
typedef struct {
    float scale;
    int shift;
    float pad[2];
} Params;

__kernel void histogram(__global const uint *values, __global volatile int *bins, uint nbins)
{
    int i = get_global_id(0);
    atomic_inc(&bins[values[i] % nbins]);
}

__kernel void apply(__global const float *in, __global float *out, Params p)
{
    int i = get_global_id(0);
    out[i] = in[i] * p.scale + (float)p.shift;
}

__kernel void scalars(__global double *out, char c, uchar uc, short s, ushort us, int i,
                      uint ui, long l, ulong ul, float f, double d)
{
    out[0] = c; out[1] = uc; out[2] = s; out[3] = us; out[4] = i;
    out[5] = ui; out[6] = l; out[7] = ul; out[8] = f; out[9] = d;
}

__kernel void guarded(__global float *x, int n)
{
    int i = get_global_id(0);
    if (i < n) x[i] = x[i] * 2.0f + 1.0f;
}
