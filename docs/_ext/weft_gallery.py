"""Sphinx directives of weft's site that run things at build time, so that what the pages show
is what the code does today:

``.. weft-example:: PATH``
    Runs the Python script PATH (relative to the repository) on the host backend in a fresh
    folder and shows its source, what it printed, and every PNG it wrote there.
``.. weft-command:: ARGS``
    Runs ``python -m weft ARGS`` and shows its output (the command-line page).
``.. weft-headers::``
    The public C++ headers (include/weft/*.hpp), each with the comment it opens with.

A script or command that fails fails the build, with its output. Also checks at build time
that the Python reference (api/python.rst) lists every name of ``weft.__all__``.
"""
from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)
REPO = pathlib.Path(__file__).resolve().parents[2]


def _environment():
    env = dict(os.environ)
    env.setdefault("WEFT_DEVICE", "host")
    env["MPLBACKEND"] = "Agg"
    # The weft this build imported, for the scripts too (PYTHONPATH=build/python or installed).
    import weft

    root = str(pathlib.Path(weft.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


def _run(argv, cwd, what, timeout=300):
    proc = subprocess.run(argv, cwd=cwd, env=_environment(), capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{what} exited {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    return proc


def _literal(text, language="text"):
    block = nodes.literal_block(text, text)
    block["language"] = language
    return block


class WeftExample(SphinxDirective):
    required_arguments = 1
    option_spec = {"hide-source": directives.flag}

    def run(self):
        script = REPO / self.arguments[0]
        self.env.note_dependency(str(script))
        name = script.stem
        out_dir = pathlib.Path(self.env.srcdir) / "_gallery" / name
        out_dir.mkdir(parents=True, exist_ok=True)
        for old in out_dir.glob("*.png"):
            old.unlink()
        proc = _run([sys.executable, str(script)], out_dir, f"gallery example {self.arguments[0]}")
        result = []
        if "hide-source" not in self.options:
            container = nodes.container(classes=["weft-example-source"])
            container += nodes.paragraph("", "", nodes.literal(self.arguments[0], self.arguments[0]))
            container += _literal(script.read_text(), "python")
            result.append(container)
        printed = (proc.stdout + proc.stderr).strip()
        if printed:
            result.append(nodes.paragraph("", "It prints (on the host backend, when this site was built):"))
            result.append(_literal(printed))
        for png in sorted(out_dir.glob("*.png")):
            rel = png.relative_to(self.env.srcdir).as_posix()
            result.append(nodes.image(uri="/" + rel, alt=f"{name}: {png.stem}"))
        return result


class WeftCommand(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True

    def run(self):
        argv = shlex.split(self.arguments[0])
        proc = _run([sys.executable, "-m", "weft", *argv], REPO, f"weft {self.arguments[0]}", timeout=120)
        return [nodes.paragraph("", "", nodes.literal("", "$ weft " + self.arguments[0])), _literal(proc.stdout)]


def _leading_comment(text):
    lines = []
    for line in text.splitlines():
        if line.startswith("//"):
            lines.append(line[3:] if line.startswith("// ") else line[2:])
        elif lines or line.strip():
            break
    return "\n".join(lines).strip()


class WeftHeaders(SphinxDirective):
    def run(self):
        result = []
        for header in sorted((REPO / "include" / "weft").glob("*.hpp")):
            self.env.note_dependency(str(header))
            title = f"weft/{header.name}"
            section = nodes.section(ids=[nodes.make_id("header-" + header.stem)])
            section += nodes.title(title, title)
            comment = _leading_comment(header.read_text())
            section += _literal(f"#include <{title}>\n\n" + (comment or "(no opening comment)"), "text")
            result.append(section)
        return result


def _extension_functions_are_functions():
    """autosummary takes the extension's functions (nanobind's nb_func) for data, and then
    shows nanobind's signature line as their summary; they are functions (Sphinx 9's
    autosummary asks one private function, wrapped here; older ones fall back to the
    template, _templates/autosummary/base.rst)."""
    import sphinx.ext.autosummary as autosummary

    original = getattr(autosummary, "_get_documenter", None)
    if original is None or getattr(original, "_weft", False):
        return

    def get_documenter(obj, parent):
        return "function" if type(obj).__name__ == "nb_func" else original(obj, parent)

    get_documenter._weft = True
    autosummary._get_documenter = get_documenter


def _check_python_reference(app):
    import weft

    text = (pathlib.Path(app.srcdir) / "api" / "python.rst").read_text()
    listed = set(re.findall(r"^   (\w+)$", text, re.MULTILINE)) | set(re.findall(r"``(\w+)``", text))
    missing = sorted(set(weft.__all__) - listed)
    if missing:
        logger.warning("api/python.rst does not list these names of weft.__all__: %s", ", ".join(missing))


def setup(app):
    app.add_directive("weft-example", WeftExample)
    app.add_directive("weft-command", WeftCommand)
    app.add_directive("weft-headers", WeftHeaders)
    app.connect("builder-inited", _check_python_reference)
    _extension_functions_are_functions()
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
