// Kernels for the ordering tests: a slow write (it spins first, so that a command that does
// not wait for it reads the old values) and a copy.
__kernel void slow_add(__global int* x, int amount, int spin)
{
    int i = get_global_id(0);
    float v = (float)i;
    for (int k = 0; k < spin; ++k) v = v * 0.999999f + 0.5f;
    // v is never negative: the spin only delays the write.
    x[i] = x[i] + amount + (v < 0.0f ? 1 : 0);
}

__kernel void copy_int(__global const int* src, __global int* dst)
{
    int i = get_global_id(0);
    dst[i] = src[i];
}
