"""The polygon exercise (shared/seeds/001) with weft's Python kernels: the course's own
insidePolygon, its body unchanged (only the decorator and the types are added), compiled by
@weft.jit and called for every pixel from a weft.prange loop, on the device WEFT_DEVICE names
(the host CPU when unset):

    WEFT_DEVICE=opencl:0:0 python3 examples/python/python_kernels.py

The two prange loops become the kernel's 2-d NDRange (x is dimension 0); insidePolygon becomes
a helper function of the same program. The mask must equal weft.polygon_mask's, which follows
the same rule (docs/POLYGON.md) by scanline. weft.show_source prints the generated OpenCL C.
"""
from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt

import weft


@weft.jit
def insidePolygon(vertices: npt.NDArray[np.float64], point: tuple[int, int], border_value: bool = True) -> bool:
    """
    Return True/False is a pixel is inside a polygon.

    @param vertices:
    @param point: 2-tuple of integers or list
    @param border_value: boolean
    """
    counter = 0
    for i, polypoint1 in enumerate(vertices):
        if (polypoint1[0] == point[0]) and (polypoint1[1] == point[1]):
            return border_value
        polypoint2 = vertices[(i+1)%len(vertices)]
        if (point[1] > min(polypoint1[1], polypoint2[1])):
            if (point[1] <= max(polypoint1[1], polypoint2[1])):
                if (point[0] <= max(polypoint1[0], polypoint2[0])):
                    if (polypoint1[1] != polypoint2[1]):
                        xinters = (point[1]-polypoint1[1])*(polypoint2[0]-polypoint1[0])/(polypoint2[1]-polypoint1[1])+polypoint1[0]
                        if (polypoint1[0] == polypoint2[0]) or (point[0] <= xinters):
                            counter+=1
    if counter % 2 == 0:
        return False
    else:
        return True


@weft.jit
def polygon_pixels(vertices: npt.NDArray[np.float64], mask: npt.NDArray[np.uint8], border_value: bool) -> None:
    for y in weft.prange(mask.shape[0]):
        for x in weft.prange(mask.shape[1]):
            mask[y, x] = insidePolygon(vertices, (x, y), border_value)


def main() -> None:
    device = weft.default_device()
    L, N = 256, 24
    vertices = weft.random_polygon(N, 1, L, L)
    mask = weft.zeros((L, L), np.uint8, device=device)
    v = weft.asarray(vertices, device=device)

    t0 = time.perf_counter()
    polygon_pixels(v, mask, True)  # first call: translate, build (or load from the disk cache), run
    got = mask.get()
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    polygon_pixels(v, mask, True)
    got = mask.get()
    again = time.perf_counter() - t0

    expected = weft.polygon_mask(vertices, L, L, device=device)
    assert np.array_equal(got, expected), "the Python kernel's mask differs from weft.polygon_mask"
    # A few pixels against the plain Python function (insidePolygon.__wrapped__).
    for x, y in [(0, 0), (L // 2, L // 2), (int(vertices[0][0]), int(vertices[0][1]))]:
        assert bool(got[y, x]) == insidePolygon.__wrapped__(vertices, (x, y), True)
    print(f"{device.selector}: {L}x{L} mask of a {N}-vertex polygon, {int(got.sum())} pixels inside, "
          f"equal to weft.polygon_mask; first call {first * 1e3:.1f} ms, again {again * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
