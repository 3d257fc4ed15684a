"""Vendored for weft: only the 2024.12 stubs are kept (the upstream file imports every revision)."""
from . import _2024_12
