// The three kernels of shared/seeds/000, unchanged, after a preamble that defines the
// "external function" they call. LOCAL_SIZE comes from the build options (-D LOCAL_SIZE=256).
float external_function(float x)
{
    return 3.0f * x * x - 2.0f * x + 1.0f;
}

__kernel void inefficient_kernel(__global const float* a, __global float* b) {
    int i = get_global_id(0);
    b[i] = external_function(a[i]);
}

__kernel void efficient_kernel(__global const float* a, __global float* b) {
    int i = get_global_id(0);
    b[i] = external_function(a[i]);
}

__kernel void local_mem_kernel(__global const float* a, __global float* b) {
    __local float local_a[LOCAL_SIZE];
    int i = get_global_id(0);
    int local_id = get_local_id(0);
    int group_id = get_group_id(0);

    // Load data into local memory
    local_a[local_id] = a[i];
    barrier(CLK_LOCAL_MEM_FENCE);

    // Process data in local memory
    local_a[local_id] = external_function(local_a[local_id]);
    barrier(CLK_LOCAL_MEM_FENCE);

    // Store results back to global memory
    b[i] = local_a[local_id];
}
