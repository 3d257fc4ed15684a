"""Fixtures: every test that takes `device` runs on each device this machine has (the host
backend and PoCL in CI; CUDA and NVIDIA's OpenCL on the lent GPU). WEFT_TEST_DEVICES narrows
them (a comma-separated list of selectors). Compiled kernels land in a per-run cache folder."""
import os
import tempfile

import pytest

os.environ.setdefault("WEFT_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"weft-pytest-cache-{os.getuid()}"))

import weft  # noqa: E402


def _devices():
    wanted = os.environ.get("WEFT_TEST_DEVICES")
    if wanted:
        return [weft.Device(s.strip()) for s in wanted.split(",") if s.strip()]
    return weft.devices()


DEVICES = _devices()


@pytest.fixture(params=DEVICES, ids=[d.selector for d in DEVICES])
def device(request):
    return request.param


@pytest.fixture
def queue(device):
    return weft.Queue(device)


@pytest.fixture
def generator_choice():
    """choose(name, value): a code path the kernel generators take for this test only (for
    example the two-stage split of axis reductions on a CPU); see generator_choices.hpp."""
    chosen = []

    def choose(name, value):
        weft._weft._set_generator_choice(name, value)
        chosen.append(name)

    yield choose
    for name in chosen:
        weft._weft._set_generator_choice(name, "auto")


@pytest.fixture(scope="session")
def dask_client():
    """ONE dask.distributed Client on a weft.dask.local_cluster of two worker processes (the
    first two devices, or the one device twice), shared by every test that needs a cluster:
    starting one costs seconds."""
    distributed = pytest.importorskip("distributed")
    wd = pytest.importorskip("weft.dask")
    devices = [d.selector for d in DEVICES][:2]
    devices = devices if len(devices) == 2 else devices * 2
    with wd.local_cluster(devices, dashboard_address=":0", silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        client.weft_devices = devices
        yield client
