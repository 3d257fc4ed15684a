// Math built-ins, one per output column, for comparison with the C library.
#define NF 16
__kernel void float_math(__global const float *x, __global float *out)
{
    int i = get_global_id(0);
    float v = x[i];
    float a = fabs(v) + 0.5f;
    __global float *o = out + NF * i;
    o[0] = sqrt(a);
    o[1] = exp(v);
    o[2] = log(a);
    o[3] = sin(v);
    o[4] = cos(v);
    o[5] = pow(a, 1.5f);
    o[6] = atan2(v, a);
    o[7] = fmin(v, 0.25f);
    o[8] = fmax(v, 0.25f);
    o[9] = floor(v * 3.0f);
    o[10] = ceil(v * 3.0f);
    o[11] = round(v * 3.0f);
    o[12] = mad(v, 2.0f, 1.0f);
    o[13] = clamp(v, -0.5f, 0.5f);
    o[14] = (float)isnan(v / v) + 2.0f * (float)isinf(1.0f / (v - v));
    o[15] = rsqrt(a);
}

__kernel void double_math(__global const double *x, __global double *out)
{
    int i = get_global_id(0);
    double a = fabs(x[i]) + 0.5;
    out[2 * i] = sqrt(a) + exp(x[i]);
    out[2 * i + 1] = hypot(x[i], a);
}
