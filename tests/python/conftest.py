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
