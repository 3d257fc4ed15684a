// Double-precision throughput for `weft calibrate`, built only on devices with fp64 (see
// calibrate.cl for the shape of the loop).

__kernel void weft_cal_f64(__global double *a)
{
  const size_t i = get_global_id(0);
  double x = a[i], y = x + 1.0, z = x + 2.0, w = x + 3.0;
  for (int k = 0; k < 16; ++k) {
    x = x * 0.999 + 0.001;
    y = y * 0.999 + 0.002;
    z = z * 0.999 + 0.003;
    w = w * 0.999 + 0.004;
  }
  a[i] = x + y + z + w;
}
