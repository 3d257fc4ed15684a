// A single-pass scan for GPUs: decoupled look-back (Merrill and Garland, 2016). Each
// work-group takes the next tile in scheduling order (an atomic counter, so every tile it
// waits for is already running), scans it in local memory, publishes the tile's aggregate,
// then looks back over its predecessors' aggregates, 32 at a time, until it meets a published
// inclusive prefix. The input is read once and the output written once. Tile status: 0 nothing yet,
// 1 aggregate ready, 2 inclusive prefix ready; values are published before their flags.
#define WEFT_TILE (WEFT_GROUP * WEFT_SCAN_ITEMS)
// Predecessors looked at per round. A tile publishes its prefix only once its look-back has
// met one, so prefixes advance about one window per round: the window bounds the scan's speed.
#define WEFT_WINDOW_MAX 128
#define WEFT_WINDOW (WEFT_WINDOW_MAX < WEFT_GROUP ? WEFT_WINDOW_MAX : WEFT_GROUP)
// Items scan their runs of WEFT_SCAN_ITEMS at a stride: one word of padding per 32 keeps the
// banks of local memory apart.
#define WEFT_PAD(j) ((j) + ((j) >> 5))

__kernel void weft_scan_lookback(${ARGS}long ${N}, __global volatile int *weft_status,
                                 __global volatile weft_scan_t *weft_aggregate,
                                 __global volatile weft_scan_t *weft_prefix,
                                 __global volatile int *weft_tile_counter)
{
    __local weft_scan_t weft_items[WEFT_TILE + WEFT_TILE / 32];
    __local weft_scan_t weft_sums[WEFT_GROUP];
    __local int weft_tile_shared;
    __local weft_scan_t weft_carry_shared;
    __local int weft_done;
    __local int weft_window_status[WEFT_WINDOW_MAX];
    __local weft_scan_t weft_window_value[WEFT_WINDOW_MAX];
    const int lid = get_local_id(0);

    if (lid == 0) weft_tile_shared = atomic_inc(weft_tile_counter);
    barrier(CLK_LOCAL_MEM_FENCE);
    const long tile = weft_tile_shared;
    const long base = tile * WEFT_TILE;

    // Load the tile coalesced, then each item scans its own contiguous run in local memory.
    for (int k = 0; k < WEFT_SCAN_ITEMS; ++k) {
        const long i = base + lid + k * WEFT_GROUP;
        weft_items[WEFT_PAD(lid + k * WEFT_GROUP)] = i < ${N} ? weft_input(i, ${NAMES}${N}) : (weft_scan_t)(${NEUTRAL});
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    weft_scan_t run = ${NEUTRAL};
    for (int k = 0; k < WEFT_SCAN_ITEMS; ++k) {
        run = WEFT_SCAN(run, weft_items[WEFT_PAD(lid * WEFT_SCAN_ITEMS + k)]);
        weft_items[WEFT_PAD(lid * WEFT_SCAN_ITEMS + k)] = run;
    }
    weft_sums[lid] = run;
    barrier(CLK_LOCAL_MEM_FENCE);
    // The items' totals, scanned across the work-group (Hillis and Steele).
    for (int offset = 1; offset < WEFT_GROUP; offset <<= 1) {
        const weft_scan_t earlier = lid >= offset ? weft_sums[lid - offset] : (weft_scan_t)(${NEUTRAL});
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid >= offset) weft_sums[lid] = WEFT_SCAN(earlier, weft_sums[lid]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Publish this tile's aggregate (tile 0: its inclusive prefix, which ends every look-back).
    const weft_scan_t total = weft_sums[WEFT_GROUP - 1];
    if (lid == 0) {
        if (tile == 0) {
            weft_prefix[0] = total;
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            weft_status[0] = 2;
        } else {
            weft_aggregate[tile] = total;
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            weft_status[tile] = 1;
        }
        weft_done = tile == 0;
        weft_carry_shared = ${NEUTRAL};
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Look back WEFT_WINDOW predecessors at a time: each of the first items reads one of them
    // (waiting until it has published something), then one item folds the window, nearest
    // first, until it meets an inclusive prefix. Every item reads weft_done after a barrier,
    // so all take the same number of rounds.
    long window_end = tile;
    while (!weft_done) {
        if (lid < WEFT_WINDOW) {
            const long p = window_end - 1 - lid;
            int status = 2;
            weft_scan_t value = ${NEUTRAL};
            if (p >= 0) {
                while ((status = weft_status[p]) == 0) {
                }
                mem_fence(CLK_GLOBAL_MEM_FENCE);
                value = status == 2 ? weft_prefix[p] : weft_aggregate[p];
            }
            weft_window_status[lid] = status;
            weft_window_value[lid] = value;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            weft_scan_t look = weft_carry_shared;
            for (int w = 0; w < WEFT_WINDOW; ++w) {
                look = WEFT_SCAN(weft_window_value[w], look);
                if (weft_window_status[w] == 2) {
                    weft_done = 1;
                    break;
                }
            }
            weft_carry_shared = look;
        }
        window_end -= WEFT_WINDOW;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && tile > 0) {
        weft_prefix[tile] = WEFT_SCAN(weft_carry_shared, total);
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        weft_status[tile] = 2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const weft_scan_t tile_carry = weft_carry_shared;
    const weft_scan_t before_item = WEFT_SCAN(tile_carry, lid > 0 ? weft_sums[lid - 1] : (weft_scan_t)(${NEUTRAL}));
    for (int k = 0; k < WEFT_SCAN_ITEMS; ++k) {
        weft_items[WEFT_PAD(lid * WEFT_SCAN_ITEMS + k)] =
            WEFT_SCAN(before_item, weft_items[WEFT_PAD(lid * WEFT_SCAN_ITEMS + k)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Outputs in coalesced order: element j of the tile goes to item j % WEFT_GROUP.
    for (int k = 0; k < WEFT_SCAN_ITEMS; ++k) {
        const int j = lid + k * WEFT_GROUP;
        const long i = base + j;
        if (i < ${N}) {
            const weft_scan_t item = weft_items[WEFT_PAD(j)];
            const weft_scan_t prev_item = j > 0 ? weft_items[WEFT_PAD(j - 1)] : tile_carry;
            {
${OUTPUT};
            }
        }
    }
}
