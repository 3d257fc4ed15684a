// The kernels `weft calibrate` times (src/placement/measure.cpp): an empty one (launch
// latency), a copy (device bandwidth), chains of multiply-adds (arithmetic throughput) and of
// math functions (their rate).
// Four independent chains per work-item keep a pipelined unit busy; each of the 16 steps is 8
// operations (4 multiplies, 4 adds), 128 per work-item, and the result is stored so no
// compiler drops them. The step count is a constant so compilers unroll the loop completely
// and vectorize across work-items (the host backend, PoCL) as they do generated kernels.

__kernel void weft_cal_empty(__global float *a)
{
  if (get_global_id(0) == 1u << 30) a[0] = 0.0f;
}

__kernel void weft_cal_copy(__global const float4 *a, __global float4 *b)
{
  const size_t i = get_global_id(0);
  b[i] = a[i];
}

__kernel void weft_cal_f32(__global float *a)
{
  const size_t i = get_global_id(0);
  float x = a[i], y = x + 1.0f, z = x + 2.0f, w = x + 3.0f;
  for (int k = 0; k < 16; ++k) {
    x = x * 0.999f + 0.001f;
    y = y * 0.999f + 0.002f;
    z = z * 0.999f + 0.003f;
    w = w * 0.999f + 0.004f;
  }
  a[i] = x + y + z + w;
}

__kernel void weft_cal_int(__global int *a)
{
  const size_t i = get_global_id(0);
  int x = a[i], y = x + 1, z = x + 2, w = x + 3;
  for (int k = 0; k < 16; ++k) {
    x = x * 3 + 1;
    y = y * 5 + 3;
    z = z * 7 + 5;
    w = w * 9 + 7;
  }
  a[i] = x + y + z + w;
}

// Math-library functions (math throughput): four independent chains of sin, exp, log and cos,
// four steps each, 16 calls per work-item, as generated kernels call them.
__kernel void weft_cal_math(__global float *a)
{
  const size_t i = get_global_id(0);
  float x = a[i] + 0.5f, y = x + 0.25f, z = x + 1.5f, w = x + 0.75f;
  for (int k = 0; k < 4; ++k) {
    x = sin(x);
    y = exp(-y);
    z = log(z + 2.0f);
    w = cos(w);
  }
  a[i] = x + y + z + w;
}
