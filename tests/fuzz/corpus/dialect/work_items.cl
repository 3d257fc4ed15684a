// Work-item functions in 3 dimensions, with offsets and work-groups, and from a helper
// function (not a kernel) that calls get_global_id itself.
size_t linear_id(void)
{
    return get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
}

__kernel void ids(__global uint *out)
{
    size_t gx = get_global_id(0) - get_global_offset(0);
    size_t gy = get_global_id(1) - get_global_offset(1);
    size_t gz = get_global_id(2) - get_global_offset(2);
    size_t n = gx + get_global_size(0) * (gy + get_global_size(1) * gz);
    __global uint *o = out + 8 * n;
    o[0] = get_global_id(0);
    o[1] = get_global_id(1);
    o[2] = get_global_id(2);
    o[3] = get_local_id(0) + 100 * get_local_id(1) + 10000 * get_local_id(2);
    o[4] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
    o[5] = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
    o[6] = get_work_dim();
    o[7] = linear_id();
}
