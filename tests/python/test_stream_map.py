"""weft.stream_map (issue 30): results, their order, out= forms, errors raised by fn and by the
chunks, and the copy queues independent of the array queue (ordered_with_arrays=False)."""
import numpy as np
import pytest

import weft


@pytest.mark.parametrize("queues", [2, 3])
def test_results_in_chunk_order(device, queues):
    a = np.arange(10_001, dtype=np.float32)
    chunks = np.array_split(a, 9)  # uneven sizes: the device slots are remade
    got = weft.stream_map(lambda x: x * 2 + 1, chunks, device=device, queues=queues)
    assert len(got) == 9
    for c, r in zip(chunks, got):
        assert r.dtype == np.float32 and r.shape == c.shape
        np.testing.assert_array_equal(r, c * 2 + 1)


def test_out_stacks_along_axis_0(device):
    a = np.random.default_rng(1).random((40, 3))
    out = np.full((40, 3), np.nan)
    res = weft.stream_map(weft.sqrt, np.array_split(a, 6), device=device, out=out)
    assert res is out
    np.testing.assert_allclose(out, np.sqrt(a))


def test_out_list_and_a_generator_of_chunks(device):
    chunks = (np.full(5, float(i)) for i in range(7))  # read as needed
    out = [np.empty(5) for _ in range(7)]
    res = weft.stream_map(lambda x: x - 1, chunks, device=device, out=out)
    assert [r is o for r, o in zip(res, out)] == [True] * 7
    for i, o in enumerate(out):
        np.testing.assert_array_equal(o, np.full(5, i - 1.0))


def test_result_of_another_shape_and_a_view(device):
    a = np.arange(64.0).reshape(8, 8)
    # a reduction per chunk, and a strided view of the argument (copied to be contiguous)
    sums = weft.stream_map(lambda x: x.sum(axis=1), np.array_split(a, 4), device=device)
    np.testing.assert_array_equal(np.concatenate(sums), a.sum(axis=1))
    cols = weft.stream_map(lambda x: x[:, ::2], np.array_split(a, 4), device=device)
    np.testing.assert_array_equal(np.concatenate(cols), a[:, ::2])
    # fn returning its argument: the slot is reused only after the download
    same = weft.stream_map(lambda x: x, [np.full(3, float(i)) for i in range(8)], device=device)
    np.testing.assert_array_equal(np.stack(same), np.repeat(np.arange(8.0), 3).reshape(8, 3))


def test_out_that_does_not_fit(device):
    chunks = np.array_split(np.arange(12.0), 3)
    with pytest.raises(weft.InvalidArgument, match="dtype"):
        weft.stream_map(lambda x: x, chunks, device=device, out=np.empty(12, np.float32))
    with pytest.raises(weft.InvalidArgument, match="rows"):
        weft.stream_map(lambda x: x, chunks, device=device, out=np.empty(10))
    with pytest.raises(weft.InvalidArgument, match="filled 12 of out's 13 rows"):
        weft.stream_map(lambda x: x, chunks, device=device, out=np.empty(13))
    with pytest.raises(weft.InvalidArgument, match="shape"):
        weft.stream_map(lambda x: x, chunks, device=device, out=np.empty((12, 1)))
    with pytest.raises(weft.InvalidArgument, match=r"out\[1\]"):
        weft.stream_map(lambda x: x, chunks, device=device, out=[np.empty(4), np.empty(5), np.empty(4)])
    with pytest.raises(weft.InvalidArgument, match="2 arrays for 3 chunks|fewer than the chunks"):
        weft.stream_map(lambda x: x, chunks, device=device, out=[np.empty(4), np.empty(4)])
    with pytest.raises(weft.InvalidArgument, match="queues must be 2 or 3"):
        weft.stream_map(lambda x: x, chunks, device=device, queues=1)


def test_fn_that_raises_stops_after_the_copies_in_flight(device):
    seen = []

    def fn(x):
        seen.append(len(seen))
        if len(seen) == 4:
            raise ValueError("chunk 3 is bad")
        return x + 1

    out = np.zeros(24)
    with pytest.raises(ValueError, match="chunk 3 is bad"):
        weft.stream_map(fn, np.array_split(np.arange(24.0), 6), device=device, out=out)
    assert seen == [0, 1, 2, 3]  # no chunk after the failing one
    np.testing.assert_array_equal(out[:12], np.arange(12.0) + 1)  # the earlier ones were downloaded
    np.testing.assert_array_equal(out[12:], 0)
    with pytest.raises(TypeError, match="must return a weft.Array"):
        weft.stream_map(lambda x: x.get(), [np.ones(2)], device=device)


def test_chunks_iterator_that_raises(device):
    def chunks():
        yield np.ones(4)
        yield np.ones(4)
        raise KeyError("no more")

    with pytest.raises(KeyError, match="no more"):
        weft.stream_map(lambda x: x * 3, chunks(), device=device)


def test_empty_chunks_and_no_chunks(device):
    assert weft.stream_map(lambda x: x, [], device=device) == []
    got = weft.stream_map(lambda x: x + 1, [np.ones(0), np.ones(2)], device=device)
    assert got[0].shape == (0,) and list(got[1]) == [2.0, 2.0]


def test_independent_queue_is_not_ordered_with_arrays(device):
    q = weft.Queue(device, ordered_with_arrays=False)
    assert "Queue" in repr(q)
    # explicit events order it: a write on it, then array work after a barrier on its event
    a = weft.zeros(4, device=device)
    ev = weft.enqueue_copy(q, a.data, np.arange(4.0), wait_for=[weft.array_queue(device).marker()])
    weft.array_queue(device).barrier([ev])
    np.testing.assert_array_equal((a * 2).get(), np.arange(4.0) * 2)



def test_cancellation_propagates_and_leaves_no_thread(device):
    import threading

    class Cancelled(BaseException):  # as KeyboardInterrupt or asyncio.CancelledError
        pass

    before = threading.active_count()

    def fn(x):
        if float(x[0]) == 2.0:
            raise Cancelled()
        return x * 1

    with pytest.raises(Cancelled):
        weft.stream_map(fn, [np.full(1000, float(i)) for i in range(6)], device=device)
    assert threading.active_count() == before  # the download thread was shut down
    got = weft.stream_map(lambda x: x, [np.ones(3)] * 5, device=device)  # and a new call works
    assert len(got) == 5 and threading.active_count() == before
