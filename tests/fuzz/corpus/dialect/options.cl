//opts: -D N=4 -D T=float -D class=new -DFLAG -I include -cl-fast-relaxed-math
typedef struct { T v[N]; int class; } S;
__kernel void k(__global T* x, __local float* scratch, S s) { x[get_global_id(0)] = s.v[0] * FLAG; }
