#!/usr/bin/env bash
# Builds the documentation site into build/docs/html with warnings as errors, runs the
# examples in the docstrings and pages (Sphinx's doctest builder), then checks the site's
# internal links (Sphinx's linkcheck; outside links are not checked). Needs the Python package:
# the extension built by scripts/build.sh with -DWEFT_BUILD_PYTHON=ON is used from build/python
# when there, else the installed weft. Installs Sphinx and MyST with pip when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import sphinx, myst_parser, matplotlib" 2>/dev/null || scripts/pip-install.sh sphinx myst-parser matplotlib
if [ -f build/python/weft/__init__.py ] && ls build/python/weft/_weft.*.so > /dev/null 2>&1; then
  export PYTHONPATH="$PWD/build/python${PYTHONPATH:+:$PYTHONPATH}"
fi
# The examples count fused kernels: a first run on the host's prebuilt kernels (one per
# operation, while the fused one compiles) is tested by tests/python/test_host_prebuilt.py.
export WEFT_CACHE_DIR=${WEFT_CACHE_DIR:-$PWD/build/docs/cache} WEFT_DEVICE=${WEFT_DEVICE:-host}
export WEFT_HOST_PREBUILT=${WEFT_HOST_PREBUILT:-0}
rm -rf docs/api/generated docs/_gallery
python3 -m sphinx -E -b html -W --keep-going -q -d build/docs/doctrees docs build/docs/html
python3 -m sphinx -b doctest -W --keep-going -q -d build/docs/doctrees docs build/docs/doctest
python3 -m sphinx -b linkcheck -W --keep-going -q -d build/docs/doctrees docs build/docs/linkcheck
echo "docs: build/docs/html/index.html"
