// Vector types on every backend: literals, swizzles (read and write), lo/hi/even/odd,
// component-wise arithmetic and comparisons, conversions, reinterpretation, vload/vstore.
__kernel void literals(__global float4 *out, float x)
{
    int i = get_global_id(0);
    float2 p = (float2)(x, 2.0f * x);
    out[4 * i + 0] = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    out[4 * i + 1] = (float4)(p, p.yx);
    out[4 * i + 2] = (float4)(x);
    out[4 * i + 3] = (float4)(p.x, (float2)(5.0f, 6.0f), p.s1);
}

__kernel void swizzles(__global const float4 *in, __global float4 *out)
{
    int i = get_global_id(0);
    float4 v = in[i];
    float4 w = v.wzyx;
    w.xy = v.zw;
    w.s3 = v.s0 + v.s1;
    w.lo += (float2)(10.0f, 20.0f);
    float2 e = v.even;
    float2 o = v.odd;
    out[3 * i + 0] = w;
    out[3 * i + 1] = (float4)(e, o);
    out[3 * i + 2] = (float4)(v.hi, v.lo) * 2.0f - 1.0f;
}

__kernel void compare_select(__global const float4 *a, __global const float4 *b,
                             __global float4 *out, __global int4 *mask)
{
    int i = get_global_id(0);
    int4 m = a[i] > b[i];
    mask[i] = m;
    out[i] = select(b[i], a[i], m);
}

__kernel void conversions(__global const float4 *in, __global int4 *sat,
                          __global uint *bits, __global uchar4 *bytes)
{
    int i = get_global_id(0);
    sat[i] = convert_int4_sat(in[i] * 1e10f);
    bits[i] = as_uint(in[i].x);
    bytes[i] = convert_uchar4_sat(in[i]);
}

__kernel void load_store(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float4 v = vload4(i, in);
    vstore4(v.wzyx + (float4)(1.0f, 2.0f, 3.0f, 4.0f), i, out);
}

__kernel void int_vectors(__global const int4 *a, __global int4 *out)
{
    int i = get_global_id(0);
    int4 v = a[i];
    out[2 * i] = (v << 2) ^ (v >> 1) | (v & 7);
    out[2 * i + 1] = convert_int4(abs(v - 100)) + max(v, 3) + clamp(v, -5, 5);
}

__kernel void three_wide(__global const float3 *in, __global float3 *out)
{
    int i = get_global_id(0);
    float3 v = in[i];
    out[i] = cross(v, (float3)(0.0f, 0.0f, 1.0f)) + dot(v, v);
}
