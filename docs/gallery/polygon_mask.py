"""The polygon exercise: the mask of a random 24-vertex polygon on a 512 x 384 image, computed
by weft.polygon_mask on the current device (the even-odd rule, docs/POLYGON.md), drawn with
its outline and vertices, and checked against matplotlib's Path.contains_points."""
import time

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.path import Path

import weft

width, height = 512, 384
vertices = weft.random_polygon(24, seed=7, width=width, height=height)

start = time.perf_counter()
mask = weft.polygon_mask(vertices, height, width)           # (height, width) uint8
took = time.perf_counter() - start
print(f"{len(vertices)} vertices, {width}x{height} on {weft.default_device().selector}: "
      f"{int(mask.sum())} pixels inside ({100 * mask.mean():.1f}%), {took * 1e3:.2f} ms with the first build")

# The same mask by matplotlib (pixel (x, y) is the point x, y); they differ only on the
# boundary, where the exercise's rule and matplotlib's are not the same.
ys, xs = np.mgrid[0:height, 0:width]
inside = Path(np.vstack([vertices, vertices[:1]])).contains_points(np.c_[xs.ravel(), ys.ravel()])
differ = int((inside.reshape(height, width) != mask.astype(bool)).sum())
print(f"pixels where matplotlib's Path.contains_points differs (edges only): {differ}")

fig, ax = plt.subplots(figsize=(6.4, 4.8))
ax.imshow(mask, cmap="Blues", origin="upper", interpolation="nearest")
closed = np.vstack([vertices, vertices[:1]])
ax.plot(closed[:, 0], closed[:, 1], color="#e04838", linewidth=1)
ax.scatter(vertices[:, 0], vertices[:, 1], color="#ffd600", s=12, zorder=3)
ax.set_title("weft.polygon_mask: 24 random vertices, 512 x 384")
fig.tight_layout()
fig.savefig("polygon_mask.png", dpi=100)
