#define new(x) (x)
#include "class.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void template(global double4* this, int and) {
  double4 v = (double4)(1, 2, this[0].xy);
  this[0] = v.wzyx + convert_double4_sat_rte(vload4(0, (global int*)this)) * as_double(and);
}
