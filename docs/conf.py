"""Sphinx configuration of weft's documentation site (scripts/docs.sh builds it).

The site is built from what the repository already holds: the Markdown notes in docs/ are
pages as they are (MyST), the README's sections are included where a page needs them, the
Python reference comes from the docstrings of the package the build imports (the extension's
from python/src/*.cpp), and the gallery runs the example scripts on the host backend.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_ext"))

project = "weft"
author = "the weft developers"
copyright = "the weft developers"

try:
    import weft

    release = version = weft.__version__
except ImportError as e:  # the reference needs the package: say how to get it
    raise RuntimeError(f"docs: weft does not import ({e}); build it (scripts/build.sh with -DWEFT_BUILD_PYTHON=ON, "
                       "then PYTHONPATH=build/python) or pip install . first; scripts/docs.sh does both") from e

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "weft_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# MIGRATING.md is shown as two pages (coming from PyOpenCL, coming from CuPy) that include its
# sections; the gallery's scripts and outputs are inputs, not pages.
exclude_patterns = ["_build", "MIGRATING.md", "gallery/*.py", "_gallery"]

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
# The notes step from a page title straight to ### in places; that is a style choice there.
suppress_warnings = ["myst.header"]

autosummary_generate = True
templates_path = ["_templates"]
autodoc_default_options = {"members": True, "undoc-members": False}
autodoc_member_order = "bysource"
# Signatures as written in the code (the typing aliases stay names, not their expansions).
autodoc_typehints = "signature"
autodoc_type_aliases = {"ArrayLike": "ArrayLike", "DTypeLike": "DTypeLike", "DeviceLike": "DeviceLike",
                        "ShapeLike": "ShapeLike"}
napoleon_google_docstring = True
napoleon_numpy_docstring = True
# Attributes sections as field lists: the classes document their properties themselves.
napoleon_use_ivar = True

# Every reference must resolve (nitpicky) except the names that are not weft's to document.
nitpicky = False

html_theme = "alabaster"
html_title = f"weft {release}"
html_static_path = []
html_theme_options = {"description": "One kernel source and one array API on CPUs, OpenCL devices and CUDA GPUs",
                      "fixed_sidebar": True}

# linkcheck: the site's own links (internal references and anchors); the outside world is not
# reachable from CI.
linkcheck_ignore = [r"https?://.*"]
linkcheck_anchors = True

doctest_global_setup = """
import numpy as np
import weft
weft.Device("host").use()
"""
