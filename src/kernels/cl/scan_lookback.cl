// A single-pass scan for GPUs: decoupled look-back (Merrill and Garland, 2016). Each
// work-group takes the next tile in scheduling order (an atomic counter, so every tile it
// waits for is already running; on CUDA the work-group's index, WEFT_SCAN_GROUP_ORDER, since
// blocks start in index order there), scans it, publishes the tile's aggregate, then looks
// back over its predecessors, a window of tiles at a time, until it meets a published
// inclusive prefix. The input is read once and the output written once.
//
// A tile's status word (64 bits) carries the call's epoch (weft_epoch, bits 2 to 31) beside
// the state (1: aggregate ready, 2: inclusive prefix ready); a word of another epoch means
// nothing yet, so no call has to clear the words first. Tiles are numbered from
// weft_tile_base, the counter's value before this call. Values of 4 bytes or less travel in
// the word's high half, so one load reads state and value together and neither side needs
// a fence (as CUB's look-back); wider values are published before their status words.
//
// The tile lives in local memory given at launch (the kernel's last argument). A tile of an
// array read as it is (WEFT_SCAN_SOURCE, below) is copied there asynchronously on NVIDIA GPUs (PTX: CUDA, or NVIDIA's OpenCL), after
// asking L2 for the tile WEFT_SCAN_PREFETCH tiles ahead (compute capability 9.0).
//
// The window (WEFT_SCAN_WINDOW tiles per round): a tile publishes its prefix only once its
// look-back has met one, so prefixes advance about one window per round of global-memory
// latency. Where loads wait on device memory the work-group's width per round paid; with
// tiles copied asynchronously from L2, 16 tiles looked back by one warp (no barrier per round)
// are fastest, and fastest of all by a warp of its own that looks back while the others copy
// the tile (WEFT_SCAN_LOOKBACK_WARP, below). With PTX the window and the tile's own scan use
// warp shuffles (few barriers); elsewhere local-memory trees.
#ifndef WEFT_SCAN_GROUP
#define WEFT_SCAN_GROUP WEFT_GROUP
#endif
#define WEFT_TILE (WEFT_SCAN_GROUP * WEFT_SCAN_ITEMS)
// WEFT_SCAN_SOURCE (set by the generator when the input expression is `x[i]` of a 4- or
// 8-byte value) names the array the tile is copied from: on NVIDIA GPUs of compute
// capability 8.0 and later all of a work-item's copies are then in flight at once, straight
// into local memory, whatever the registers (the generator sets WEFT_SCAN_COPY_ASYNC=0
// elsewhere).
#ifndef WEFT_SCAN_COPY_ASYNC
#define WEFT_SCAN_COPY_ASYNC 1
#endif
#if WEFT_PTX && WEFT_SCAN_COPY_ASYNC && defined(WEFT_SCAN_SOURCE)
#define WEFT_SCAN_ASYNC 1
#else
#define WEFT_SCAN_ASYNC 0
#endif
// Items move between the coalesced and the blocked order through local memory: one word of
// padding per 32 keeps the banks apart when each item reads its own run. WEFT_SCAN_ROWS16 (the
// generator's WEFT_SCAN_WIDE: asynchronous copies of 4-byte values, 32 per item) pads each
// run of 32 to 36 words instead, so runs start on 16-byte boundaries: tiles are then copied,
// read, scanned and stored 16 bytes at a time (H200: 2-3% faster than 4-byte steps).
#if WEFT_SCAN_ASYNC && defined(WEFT_SCAN_WIDE) && WEFT_SCAN_ITEMS == 32
#define WEFT_SCAN_ROWS16 WEFT_SCAN_WIDE
#else
#define WEFT_SCAN_ROWS16 0
#endif
#if WEFT_SCAN_ROWS16
#define WEFT_PAD(j) ((j) + ((j) >> 5) * 4)
#else
#define WEFT_PAD(j) ((j) + ((j) >> 5))
#endif
#ifndef WEFT_SCAN_PREFETCH
#define WEFT_SCAN_PREFETCH 0
#endif
#ifndef WEFT_SCAN_GROUP_ORDER
#define WEFT_SCAN_GROUP_ORDER 0
#endif
// WEFT_SCAN_WINDOW: the tiles read per round of the look-back (by the first items).
#ifndef WEFT_SCAN_WINDOW
#define WEFT_SCAN_WINDOW WEFT_SCAN_GROUP
#endif
// With PTX (NVIDIA GPUs) a window of one warp's width is looked back by one warp alone (below).
#if WEFT_PTX && WEFT_SCAN_WINDOW <= 32
#define WEFT_WARP_LOOKBACK 1
#else
#define WEFT_WARP_LOOKBACK 0
#endif
// WEFT_SCAN_LOOKBACK_WARP (set by the generator with PTX, with a window of at most 32): the
// work-group has a warp more than its WEFT_SCAN_GROUP data items, and that warp looks back
// from the work-group's start, while the data items copy, fold and publish the tile; the
// prefix is then found during the tile's own copy instead of after it (H200: 146 against
// 151 us for 2^26 floats in an experiment; see the git history of bench/lab). The data items meet on a barrier of
// their own (1); all meet once (2), when the carry and the total are both known. Between
// rounds that meet no prefix the look-back warp idles WEFT_SCAN_SLEEP nanoseconds, leaving the
// status words' cache lines to the tiles publishing them.
#if WEFT_WARP_LOOKBACK && defined(WEFT_SCAN_LOOKBACK_WARP) && WEFT_SCAN_LOOKBACK_WARP
#define WEFT_SCAN_HELPER 1
#define WEFT_DATA_BARRIER() weft_barrier_among(1, WEFT_SCAN_GROUP)
#define WEFT_MEET_BARRIER() weft_barrier_among(2, WEFT_SCAN_GROUP + 32)
#else
#define WEFT_SCAN_HELPER 0
#define WEFT_DATA_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#endif
#ifndef WEFT_SCAN_SLEEP
#define WEFT_SCAN_SLEEP 0
#endif
#define WEFT_PACKED ${PACKED}
#if WEFT_PACKED
ulong weft_status_word(uint tag, weft_scan_t v)
{
    return ((ulong)(${TO_BITS}) << 32) | tag;
}
weft_scan_t weft_status_value(ulong word)
{
    const uint b = (uint)(word >> 32);
    return ${FROM_BITS};
}
#endif
// WEFT_SCAN_STATUS16 (set by the generator with PTX for 8-byte values): a tile publishes its
// aggregate and its prefix in pairs of words of their own (four words per tile), each word
// the tag and half the value's bits, a pair stored and read as one 16-byte access past L1:
// one read per tile instead of a read, a fence and a second read. A pair counts only when both
// of its words carry this call's tag, so even a 16-byte access seen in halves cannot mix two
// values; each pair is written once per call.
#if !WEFT_PACKED && WEFT_PTX && defined(WEFT_SCAN_STATUS16) && WEFT_SCAN_STATUS16
#define WEFT_STATUS_PAIR 1
ulong weft_status_bits(weft_scan_t v)
{
    return ${TO_BITS};
}
weft_scan_t weft_status_from_bits(ulong b)
{
    return ${FROM_BITS};
}
#else
#define WEFT_STATUS_PAIR 0
#endif
#if WEFT_PTX
#define WEFT_WARPS (WEFT_SCAN_GROUP / 32)
#if WEFT_CUDA
#define WEFT_FFS(x) __ffs(x)
#else
#define WEFT_FFS(x) weft_ffs(x)
#endif
#endif
#if WEFT_PTX && !WEFT_CUDA
WEFT_PTX_WARP_FUNCTIONS(weft_scan_t)
#endif
// 16 bytes of items at a time (runs of 32 four-byte items copied asynchronously): weft_vector16
// in CUDA, a union in OpenCL C, whose accesses name their address space.
#if WEFT_CUDA
#define WEFT_VEC16 weft_vector16<weft_scan_t>
#define weft_load16_local(p) weft_load16(p)
#define weft_store16_local(p, v) weft_store16(p, v)
#define weft_store16_global(p, v) weft_store16(p, v)
#elif WEFT_PTX
WEFT_PTX_VECTOR16(weft_scan_t, weft_scan_vec16)
#define WEFT_VEC16 weft_scan_vec16
#define weft_load16_local(p) (*(__local const WEFT_VEC16 *)(p))
#define weft_store16_local(p, v) (*(__local WEFT_VEC16 *)(p) = (v))
#define weft_store16_global(p, v) (*(__global WEFT_VEC16 *)(p) = (v))
#endif

#ifndef WEFT_UNROLL
#define WEFT_UNROLL
#endif
// WEFT_SCAN_AGGREGATES_ONLY (a test mode): no tile but the first publishes its prefix, so
// every look-back folds all the way back, over many windows and rounds.
#ifndef WEFT_SCAN_AGGREGATES_ONLY
#define WEFT_SCAN_AGGREGATES_ONLY 0
#endif

// Publishes a tile's aggregate (state 1) or inclusive prefix (state 2).
void weft_publish(__global volatile ulong *status, __global volatile weft_scan_t *aggregate,
                  __global volatile weft_scan_t *prefix, long tile, uint tag, weft_scan_t value)
{
#if WEFT_PACKED
    status[tile] = weft_status_word(tag, value);
#elif WEFT_STATUS_PAIR
    const ulong weft_bits = weft_status_bits(value);
    weft_store_pair(status + 4 * tile + ((tag & 3u) == 2u ? 2 : 0), (weft_bits << 32) | tag,
                    (weft_bits & 0xffffffff00000000UL) | tag);
#else
    if ((tag & 3u) == 2u) prefix[tile] = value;
    else aggregate[tile] = value;
    WEFT_DEVICE_FENCE();
    status[tile] = tag;
#endif
}

// Reads tile p's status for look-back item `item` of a round (item past the window: state 1,
// contributing nothing; a tile before the first: state 2 with the neutral value), waiting
// until the tile has published something this call. Returns the state; the value in *value.
uint weft_read_tile(__global volatile ulong *status, __global volatile weft_scan_t *aggregate,
                    __global volatile weft_scan_t *prefix, long p, int item, uint epoch, weft_scan_t *value)
{
    *value = ${NEUTRAL};
    if (item >= WEFT_SCAN_WINDOW) return 1;
    if (p < 0) return 2;
    ulong word;
#if WEFT_STATUS_PAIR
    ulong high;
    for (int weft_slot = 2;; weft_slot = 2 - weft_slot) {  // the prefix's pair, then the aggregate's
        weft_load_pair(status + 4 * p + weft_slot, &word, &high);
        if (((uint)word >> 2) == epoch && ((uint)high >> 2) == epoch) {
            *value = weft_status_from_bits((high & 0xffffffff00000000UL) | (word >> 32));
            return weft_slot ? 2 : 1;
        }
    }
#else
    while (((uint)(word = status[p]) >> 2) != epoch) {
    }
#endif
    const uint state = (uint)word & 3u;
#if WEFT_PACKED
    *value = weft_status_value(word);
#else
    WEFT_DEVICE_FENCE();
    *value = state == 2 ? prefix[p] : aggregate[p];
#endif
    return state;
}

#if WEFT_PTX
// One warp's part of a look-back window (lane 0 the nearest tile): the lanes up to the nearest
// inclusive prefix folded, farther tiles first, into lane 0's result. *stopped: a prefix was
// met in this warp.
weft_scan_t weft_fold_warp_window(weft_scan_t value, uint state, int lane, int *stopped)
{
    const uint prefixes = weft_warp_ballot(state == 2);
    const int stop = prefixes ? WEFT_FFS(prefixes) - 1 : 32;
    if (lane > stop) value = ${NEUTRAL};
    WEFT_UNROLL
    for (int offset = 1; offset < 32; offset <<= 1) {
        const weft_scan_t farther = weft_warp_shuffle_down(value, offset);
        if (lane + offset < 32) value = WEFT_SCAN(farther, value);
    }
    *stopped = prefixes != 0;
    return value;
}

// The look-back by one warp (all 32 lanes call it): the fold of tile's predecessors back to
// the nearest inclusive prefix, in every lane.
weft_scan_t weft_look_back_warp(__global volatile ulong *status, __global volatile weft_scan_t *aggregate,
                                __global volatile weft_scan_t *prefix, long tile, int lane, uint epoch)
{
    weft_scan_t carry = ${NEUTRAL};
    long window_end = tile;
    int done = tile == 0;
    while (!done) {
        weft_scan_t value;
        const uint state = weft_read_tile(status, aggregate, prefix, window_end - 1 - lane, lane, epoch, &value);
        value = weft_fold_warp_window(value, state, lane, &done);
        carry = WEFT_SCAN(weft_warp_shuffle(value, 0), carry);
        window_end -= WEFT_SCAN_WINDOW;
        if (WEFT_SCAN_SLEEP && !done) weft_sleep(WEFT_SCAN_SLEEP);
    }
    return carry;
}
#endif

__kernel void weft_scan_lookback(${ARGS}long ${N}, __global volatile ulong *weft_status,
                                 __global volatile weft_scan_t *weft_aggregate,
                                 __global volatile weft_scan_t *weft_prefix,
                                 __global volatile int *weft_tile_counter, uint weft_tile_base, uint weft_epoch,
                                 __local weft_scan_t *weft_items_given)
{
#if WEFT_SCAN_ROWS16 && !WEFT_CUDA
    // 16-byte accesses need a 16-byte boundary; through OpenCL this argument follows the
    // kernel's own local variables and may start 8 bytes off one (the launch gives 16 bytes
    // more). A local pointer's value is its offset in the work-group's local memory.
    __local weft_scan_t *weft_items = (__local weft_scan_t *)(((ulong)weft_items_given + 15) & ~(ulong)15);
#else
    __local weft_scan_t *weft_items = weft_items_given;
#endif
    __local int weft_tile_shared;
#if WEFT_PTX
    __local weft_scan_t weft_part[WEFT_WARPS];
    __local weft_scan_t weft_window_part[WEFT_WARPS];
    __local int weft_part_stop[WEFT_WARPS];
#else
    __local weft_scan_t weft_part[WEFT_SCAN_GROUP];
    __local int weft_part_stop[WEFT_SCAN_GROUP];
#endif
    const int weft_lid = get_local_id(0);
#if WEFT_PTX
    const int weft_lane = weft_lid & 31, weft_warp = weft_lid >> 5;
#endif

#if WEFT_SCAN_GROUP_ORDER
    // Tiles in work-group order: NVIDIA GPUs start blocks in index order, through CUDA or
    // OpenCL (CUB's decoupled look-back relies on it too), so every tile waited for is running
    // or done; no ticket to wait for.
    const long weft_tile = get_group_id(0);
    (void)weft_tile_shared;
#else
    if (weft_lid == 0) weft_tile_shared = (int)((uint)atomic_inc(weft_tile_counter) - weft_tile_base);
    barrier(CLK_LOCAL_MEM_FENCE);
    const long weft_tile = weft_tile_shared;
#endif
    const long weft_base = weft_tile * WEFT_TILE;
#if WEFT_SCAN_ASYNC && WEFT_SCAN_PREFETCH > 0
    // The tile WEFT_SCAN_PREFETCH tiles ahead, into L2 (one bulk request; its work-group's
    // copies then wait on L2, not on device memory).
    if (weft_lid == 0 && weft_base + (WEFT_SCAN_PREFETCH + 1) * (long)WEFT_TILE <= ${N} && ((ulong)WEFT_SCAN_SOURCE & 15) == 0) {
        weft_prefetch_l2(&WEFT_SCAN_SOURCE[weft_base + WEFT_SCAN_PREFETCH * (long)WEFT_TILE], WEFT_TILE * sizeof(weft_scan_t));
    }
#endif
#if WEFT_SCAN_HELPER
    if (weft_lid >= WEFT_SCAN_GROUP) {  // the look-back warp
        const weft_scan_t weft_found = weft_look_back_warp(weft_status, weft_aggregate, weft_prefix, weft_tile, weft_lane, weft_epoch);
        if (weft_lane == 0) weft_window_part[0] = weft_found;
        WEFT_MEET_BARRIER();
        return;
    }
#endif

    // Load the tile coalesced; each item then folds its own contiguous run (the run stays in
    // local memory, not in registers: fewer registers, more work-groups per multiprocessor
    // to overlap one tile's look-back with others' loads).
#if WEFT_SCAN_ASYNC
    if (weft_base + WEFT_TILE <= ${N}) {
#if WEFT_SCAN_ROWS16
        if (((ulong)WEFT_SCAN_SOURCE & 15) == 0) {
            WEFT_UNROLL
            for (int weft_k = 0; weft_k < WEFT_SCAN_ITEMS / 4; ++weft_k) {
                const int weft_j = 4 * (weft_lid + weft_k * WEFT_SCAN_GROUP);
                weft_copy_async16(&weft_items[WEFT_PAD(weft_j)], &WEFT_SCAN_SOURCE[weft_base + weft_j]);
            }
        } else
#endif
        {
            WEFT_UNROLL
            for (int weft_k = 0; weft_k < WEFT_SCAN_ITEMS; ++weft_k) {
                const int weft_j = weft_lid + weft_k * WEFT_SCAN_GROUP;
                weft_copy_async(&weft_items[WEFT_PAD(weft_j)], &WEFT_SCAN_SOURCE[weft_base + weft_j]);
            }
        }
        weft_copy_async_commit();
        weft_copy_async_wait_all();
    } else
#endif
    {
        WEFT_UNROLL
        for (int weft_k = 0; weft_k < WEFT_SCAN_ITEMS; ++weft_k) {
            const long i = weft_base + weft_lid + weft_k * WEFT_SCAN_GROUP;
            weft_items[WEFT_PAD(weft_lid + weft_k * WEFT_SCAN_GROUP)] = i < ${N} ? weft_input(i, ${NAMES}${N}) : (weft_scan_t)(${NEUTRAL});
        }
    }
    WEFT_DATA_BARRIER();
#if WEFT_SCAN_ROWS16
    // This item's run is row lid: 16-byte reads (a quarter-warp's reads fall in distinct banks).
    __local weft_scan_t *weft_run = weft_items + WEFT_PAD(weft_lid * WEFT_SCAN_ITEMS);
    weft_scan_t weft_mine;
    {
        const WEFT_VEC16 weft_v = weft_load16_local(weft_run);
        weft_mine = WEFT_SCAN(WEFT_SCAN(WEFT_SCAN(weft_v.weft_item[0], weft_v.weft_item[1]), weft_v.weft_item[2]), weft_v.weft_item[3]);
    }
    WEFT_UNROLL
    for (int weft_m = 1; weft_m < 8; ++weft_m) {
        const WEFT_VEC16 weft_v = weft_load16_local(weft_run + 4 * weft_m);
        WEFT_UNROLL
        for (int weft_e = 0; weft_e < 4; ++weft_e) weft_mine = WEFT_SCAN(weft_mine, weft_v.weft_item[weft_e]);
    }
#else
    weft_scan_t weft_mine = weft_items[WEFT_PAD(weft_lid * WEFT_SCAN_ITEMS)];
    WEFT_UNROLL
    for (int weft_k = 1; weft_k < WEFT_SCAN_ITEMS; ++weft_k) weft_mine = WEFT_SCAN(weft_mine, weft_items[WEFT_PAD(weft_lid * WEFT_SCAN_ITEMS + weft_k)]);
#endif

    // The items' totals scanned across the work-group: before_item is what precedes this
    // item's run within the tile, total the tile's aggregate.
    weft_scan_t weft_before_item, weft_total;
    {
#if WEFT_PTX
        weft_scan_t weft_incl = weft_mine;
        WEFT_UNROLL
        for (int weft_offset = 1; weft_offset < 32; weft_offset <<= 1) {
            const weft_scan_t weft_earlier = weft_warp_shuffle_up(weft_incl, weft_offset);
            if (weft_lane >= weft_offset) weft_incl = WEFT_SCAN(weft_earlier, weft_incl);
        }
        if (weft_lane == 31) weft_part[weft_warp] = weft_incl;
        WEFT_DATA_BARRIER();
        weft_scan_t weft_warp_before = ${NEUTRAL};
        weft_total = ${NEUTRAL};
        WEFT_UNROLL
        for (int weft_w = 0; weft_w < WEFT_WARPS; ++weft_w) {
            if (weft_w == weft_warp) weft_warp_before = weft_total;
            weft_total = WEFT_SCAN(weft_total, weft_part[weft_w]);
        }
        const weft_scan_t weft_excl = weft_warp_shuffle_up(weft_incl, 1);
        weft_before_item = weft_lane > 0 ? WEFT_SCAN(weft_warp_before, weft_excl) : weft_warp_before;
#else
        // Hillis and Steele in local memory.
        weft_part[weft_lid] = weft_mine;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int weft_offset = 1; weft_offset < WEFT_SCAN_GROUP; weft_offset <<= 1) {
            const weft_scan_t weft_earlier = weft_lid >= weft_offset ? weft_part[weft_lid - weft_offset] : (weft_scan_t)(${NEUTRAL});
            barrier(CLK_LOCAL_MEM_FENCE);
            if (weft_lid >= weft_offset) weft_part[weft_lid] = WEFT_SCAN(weft_earlier, weft_part[weft_lid]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        weft_total = weft_part[WEFT_SCAN_GROUP - 1];
        weft_before_item = weft_lid > 0 ? weft_part[weft_lid - 1] : (weft_scan_t)(${NEUTRAL});
#endif
    }

    // Publish this tile's aggregate (tile 0: its inclusive prefix, which ends every look-back).
    if (weft_lid == 0) weft_publish(weft_status, weft_aggregate, weft_prefix, weft_tile, (weft_epoch << 2) | (weft_tile == 0 ? 2u : 1u), weft_total);

    // Look back WEFT_SCAN_WINDOW predecessors per round: item j reads tile window_end - 1 - j
    // (waiting until it has published something this call), the window is folded from the
    // farthest contributing tile to the nearest, stopping at the nearest inclusive prefix.
    weft_scan_t weft_carry = ${NEUTRAL};
    long weft_window_end = weft_tile;
    int weft_done = weft_tile == 0;
#if WEFT_SCAN_HELPER
    // The look-back warp's carry: the first item publishes the prefix (after the aggregate,
    // from the same thread, so no tile reads them out of order).
    WEFT_MEET_BARRIER();
    weft_carry = weft_window_part[0];
    weft_done = 1;
    if (weft_lid == 0 && weft_tile > 0 && !WEFT_SCAN_AGGREGATES_ONLY) weft_publish(weft_status, weft_aggregate, weft_prefix, weft_tile, (weft_epoch << 2) | 2u, WEFT_SCAN(weft_carry, weft_total));
#elif WEFT_WARP_LOOKBACK
    // A window of one warp's width: the first warp looks back alone, with no barrier per round
    // (the others wait once, at the barrier after it), and publishes the prefix as soon as it
    // has it.
    {
        if (weft_warp == 0) {
            weft_carry = weft_look_back_warp(weft_status, weft_aggregate, weft_prefix, weft_tile, weft_lane, weft_epoch);
            if (weft_lane == 0) {
                weft_window_part[0] = weft_carry;
                if (weft_tile > 0 && !WEFT_SCAN_AGGREGATES_ONLY) weft_publish(weft_status, weft_aggregate, weft_prefix, weft_tile, (weft_epoch << 2) | 2u, WEFT_SCAN(weft_carry, weft_total));
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        weft_carry = weft_window_part[0];
        weft_done = 1;
    }
#endif
    while (!weft_done) {
        weft_scan_t weft_value;
        const uint weft_state = weft_read_tile(weft_status, weft_aggregate, weft_prefix, weft_window_end - 1 - weft_lid,
                                               weft_lid, weft_epoch, &weft_value);
#if WEFT_PTX
        // Per warp: the nearest prefix among its lanes (lane 0 is the nearest tile); lanes past
        // it contribute nothing; a tree over shuffles folds the rest with farther lanes first.
        int weft_stopped;
        weft_value = weft_fold_warp_window(weft_value, weft_state, weft_lane, &weft_stopped);
        if (weft_lane == 0) {
            weft_window_part[weft_warp] = weft_value;
            weft_part_stop[weft_warp] = weft_stopped;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        int weft_nearest = WEFT_WARPS - 1;
        for (int weft_w = WEFT_WARPS - 1; weft_w >= 0; --weft_w) {
            if (weft_part_stop[weft_w]) weft_nearest = weft_w;
        }
        weft_scan_t weft_window = ${NEUTRAL};
        for (int weft_w = weft_nearest; weft_w >= 0; --weft_w) weft_window = WEFT_SCAN(weft_window, weft_window_part[weft_w]);
        weft_done = weft_part_stop[weft_nearest];
#else
        // The nearest prefix of the window by a min-reduction of positions, then the fold as
        // a tree in local memory.
        weft_part_stop[weft_lid] = weft_state == 2 ? weft_lid : WEFT_SCAN_GROUP;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int weft_width = WEFT_SCAN_GROUP / 2; weft_width > 0; weft_width >>= 1) {
            if (weft_lid < weft_width) weft_part_stop[weft_lid] = min(weft_part_stop[weft_lid], weft_part_stop[weft_lid + weft_width]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const int weft_stop = weft_part_stop[0];
        weft_part[weft_lid] = weft_lid > weft_stop ? (weft_scan_t)(${NEUTRAL}) : weft_value;
        barrier(CLK_LOCAL_MEM_FENCE);
        // Neighbours pair up (entry lid covers lid .. lid + 2*width - 1, the farther on the
        // left): the order holds for operators that do not commute.
        for (int weft_width = 1; weft_width < WEFT_SCAN_GROUP; weft_width <<= 1) {
            if ((weft_lid & (2 * weft_width - 1)) == 0) weft_part[weft_lid] = WEFT_SCAN(weft_part[weft_lid + weft_width], weft_part[weft_lid]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const weft_scan_t weft_window = weft_part[0];
        weft_done = weft_stop < WEFT_SCAN_GROUP;
#endif
        weft_carry = WEFT_SCAN(weft_window, weft_carry);
        weft_window_end -= WEFT_SCAN_WINDOW;
        // Nobody overwrites the window's parts before everyone has read them.
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (weft_lid == 0 && weft_tile > 0 && !WEFT_SCAN_AGGREGATES_ONLY && !WEFT_WARP_LOOKBACK) weft_publish(weft_status, weft_aggregate, weft_prefix, weft_tile, (weft_epoch << 2) | 2u, WEFT_SCAN(weft_carry, weft_total));

    // The run's final values back into local memory (each item its own run), then the
    // outputs in coalesced order: element j of the tile goes to item j % WEFT_SCAN_GROUP.
    const weft_scan_t weft_before = weft_tile > 0 ? WEFT_SCAN(weft_carry, weft_before_item) : weft_before_item;
    weft_scan_t weft_acc = weft_before;
#if WEFT_SCAN_ROWS16
    WEFT_UNROLL
    for (int weft_m = 0; weft_m < 8; ++weft_m) {
        WEFT_VEC16 weft_v = weft_load16_local(weft_run + 4 * weft_m);
        WEFT_UNROLL
        for (int weft_e = 0; weft_e < 4; ++weft_e) {
            weft_acc = WEFT_SCAN(weft_acc, weft_v.weft_item[weft_e]);
            weft_v.weft_item[weft_e] = weft_acc;
        }
        weft_store16_local(weft_run + 4 * weft_m, weft_v);
    }
#else
    WEFT_UNROLL
    for (int weft_k = 0; weft_k < WEFT_SCAN_ITEMS; ++weft_k) {
        weft_acc = WEFT_SCAN(weft_acc, weft_items[WEFT_PAD(weft_lid * WEFT_SCAN_ITEMS + weft_k)]);
        weft_items[WEFT_PAD(weft_lid * WEFT_SCAN_ITEMS + weft_k)] = weft_acc;
    }
#endif
    WEFT_DATA_BARRIER();
    // A whole tile checks no bounds (the checks were a third of the kernel's instructions).
    const int weft_whole = weft_base + WEFT_TILE <= ${N};
#if WEFT_SCAN_ROWS16 && defined(WEFT_SCAN_DEST)
    // The output statement stores each item to an array of its type (WEFT_SCAN_DEST): 16
    // bytes at a time where that array starts on a 16-byte boundary.
    if (weft_whole && ((ulong)WEFT_SCAN_DEST & 15) == 0) {
        WEFT_UNROLL
        for (int weft_k = 0; weft_k < WEFT_SCAN_ITEMS / 4; ++weft_k) {
            const int weft_j = 4 * (weft_lid + weft_k * WEFT_SCAN_GROUP);
            weft_store16_global(&WEFT_SCAN_DEST[weft_base + weft_j], weft_load16_local(&weft_items[WEFT_PAD(weft_j)]));
        }
        return;
    }
#endif
    WEFT_UNROLL
    for (int weft_k = 0; weft_k < WEFT_SCAN_ITEMS; ++weft_k) {
        const int weft_j = weft_lid + weft_k * WEFT_SCAN_GROUP;
        const long i = weft_base + weft_j;
        if (weft_whole || i < ${N}) {
            const weft_scan_t item = weft_items[WEFT_PAD(weft_j)];
            const weft_scan_t prev_item = weft_j > 0 ? weft_items[WEFT_PAD(weft_j - 1)] : weft_carry;
            {
${OUTPUT};
            }
        }
    }
}
