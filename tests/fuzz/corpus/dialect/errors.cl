kernel void k(global int* p) { if (1) { barrier(CLK_LOCAL_MEM_FENCE); } }
void f(int) {}
kernel int bad(x) {}
