"""Python kernels (issue 28): from a decorated function to its checked AST.

parse() reads the function's source (inspect.getsource + ast), checks at decoration that it
uses only statements and expressions of the subset, and keeps what the translation needs to
name places in errors (file, first line). refuse() makes the error every stage raises:
weft.Unsupported naming the Python file, line and column, what was found and what to write
instead."""
from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn

from . import _weft


@dataclass
class Parsed:
    """A function's checked AST and where it came from."""
    func: Callable[..., Any]
    tree: ast.FunctionDef
    filename: str
    line0: int  # the file's line of the source's first line, minus one
    col0: int  # the dedent removed from each line
    params: list[str] = field(default_factory=list)
    defaults: dict[str, Any] = field(default_factory=dict)
    annotations: dict[str, Any] = field(default_factory=dict)
    stores: dict[str, int] | None = None  # how often each name is assigned (counted once: loop_only)
    source: str = ""  # the dedented source text (a part of the disk cache's key: _pyk_disk)


def where(p: Parsed, node: ast.AST | None) -> str:
    line = getattr(node, "lineno", None)
    if line is None:
        return f"{p.filename}:{p.line0 + p.tree.lineno}"
    return f"{p.filename}:{p.line0 + line}:{getattr(node, 'col_offset', 0) + p.col0 + 1}"


def refuse(p: Parsed, node: ast.AST | None, what: str, instead: str = "") -> NoReturn:
    """Raises weft.Unsupported at node: 'file:line:col: in f: what; instead'."""
    msg = f"{where(p, node)}: in Python kernel '{p.tree.name}': {what}"
    if instead:
        msg += f"; {instead}"
    raise _weft.Unsupported(msg)


# Statements and expressions outside the subset, with what to write instead.
_STATEMENTS = {
    ast.With: "'with' blocks", ast.AsyncWith: "'async with' blocks", ast.Try: "'try' blocks",
    ast.Raise: "'raise'", ast.ClassDef: "classes", ast.FunctionDef: "nested functions (define a @weft.jit "
    "function at module level and call it)", ast.AsyncFunctionDef: "async functions", ast.Global: "'global'",
    ast.Nonlocal: "'nonlocal'", ast.Delete: "'del'", ast.Import: "imports (import at module level)",
    ast.ImportFrom: "imports (import at module level)", ast.AsyncFor: "'async for'", ast.Assert: "'assert' "
    "(bounds checking is issue 28's next step)",
}
_EXPRESSIONS = {
    ast.Lambda: ("lambdas", "define a @weft.jit function and call it"),
    ast.ListComp: ("list comprehensions", "write a for loop over an output array"),
    ast.SetComp: ("set comprehensions", "write a for loop"), ast.DictComp: ("dict comprehensions", "write a for loop"),
    ast.GeneratorExp: ("generator expressions", "write a for loop"),
    ast.List: ("lists", "use a tuple of scalars, or an array argument"),
    ast.Dict: ("dicts", "pass arrays and scalars"), ast.Set: ("sets", "pass arrays and scalars"),
    ast.JoinedStr: ("f-strings", "kernels have no strings: compute numbers"),
    ast.Await: ("'await'", ""), ast.Yield: ("'yield'", "write results into an output array"),
    ast.YieldFrom: ("'yield from'", "write results into an output array"),
    ast.Starred: ("starred arguments", "pass each argument"), ast.NamedExpr: ("':=' (walrus)",
                                                                             "assign on its own line first"),
    ast.Slice: ("slices", "index one element at a time in a loop, or take a row with a[i]"),
}
if hasattr(ast, "Match"):
    _STATEMENTS[ast.Match] = "'match' (write if/elif/else)"
if hasattr(ast, "TryStar"):
    _STATEMENTS[ast.TryStar] = "'try' blocks"


def _check(p: Parsed) -> None:
    body = ast.Module(body=p.tree.body, type_ignores=[])  # not the decorators
    for node in ast.walk(body):
        if node is body:
            continue
        for kind, what in _STATEMENTS.items():
            if isinstance(node, kind):
                refuse(p, node, f"{what} are not supported" if what.endswith("s") else f"{what} is not supported",
                       "Python kernels take if/elif/else, for ... in range()/weft.prange()/enumerate(), while, "
                       "break, continue, return and assignments")
        for kind, (what, instead) in _EXPRESSIONS.items():
            if isinstance(node, kind):
                refuse(p, node, f"{what} are not supported" if what.endswith("s") else f"{what} is not supported",
                       instead)
        if isinstance(node, (ast.For, ast.While)) and node.orelse:
            refuse(p, node.orelse[0], f"'{type(node).__name__.lower()} ... else' is not supported",
                   "set a flag before 'break' and test it after the loop")
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) and not _is_docstring(p, node):
            refuse(p, node, "strings are not supported", "kernels compute numbers only")
        if isinstance(node, ast.Constant) and isinstance(node.value, complex):
            refuse(p, node, "complex numbers are not supported", "use two float variables")
        if isinstance(node, ast.Call) and node.keywords:
            refuse(p, node.keywords[0], "keyword arguments in calls are not supported", "pass them by position")


def _is_docstring(p: Parsed, node: ast.Constant) -> bool:
    body = p.tree.body
    return bool(body) and isinstance(body[0], ast.Expr) and body[0].value is node


def parse(func: Callable[..., Any], decorator: str) -> Parsed:
    """The function's checked AST; weft.Unsupported for constructs outside the subset."""
    if not inspect.isfunction(func):
        raise TypeError(f"{decorator} decorates a Python function, not {type(func).__name__}")
    try:
        lines, first = inspect.getsourcelines(func)
        filename = inspect.getsourcefile(func) or "<unknown>"
    except (OSError, TypeError) as e:
        raise _weft.Unsupported(f"{decorator}: the source of '{func.__name__}' is not available ({e}); "
                                "define the function in a file (not in an interactive prompt or exec())") from None
    src = "".join(lines)
    dedented = textwrap.dedent(src)
    col0 = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    module = ast.parse(dedented)
    tree = next(n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    p = Parsed(func, tree, filename, first - 1, col0)  # type: ignore[arg-type]
    p.source = dedented
    if isinstance(tree, ast.AsyncFunctionDef):
        refuse(p, tree, "async functions are not supported", "write a plain def")
    a = tree.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        refuse(p, tree, "*args, **kwargs, keyword-only and positional-only parameters are not supported",
               "list each parameter by name")
    p.params = [x.arg for x in a.args]
    sig = inspect.signature(func)
    for name, par in sig.parameters.items():
        if par.default is not inspect.Parameter.empty:
            if not isinstance(par.default, (bool, int, float)):
                refuse(p, tree, f"parameter '{name}' has a default of type {type(par.default).__name__}",
                       "defaults may be bool, int or float")
            p.defaults[name] = par.default
    hints = getattr(func, "__annotations__", {})
    p.annotations = {k: v for k, v in hints.items() if k != "return"}
    _check(p)
    return p


def resolve(p: Parsed, name: str) -> tuple[bool, Any]:
    """What a free name means in the function: (True, value) from its closure, globals or
    builtins, else (False, None)."""
    f = p.func
    code = f.__code__
    if f.__closure__ and name in code.co_freevars:
        try:
            return True, f.__closure__[code.co_freevars.index(name)].cell_contents
        except ValueError:
            return False, None
    if name in f.__globals__:
        return True, f.__globals__[name]
    import builtins
    if hasattr(builtins, name):
        return True, getattr(builtins, name)
    return False, None
