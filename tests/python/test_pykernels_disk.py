"""Python kernels' translations kept in the program cache (python/weft/_pyk_disk.py): a new
compiler of the same function reads the translation back instead of translating; a changed
source, closure constant, global or argument type gets a translation of its own; a corrupt
record is ignored (removed by the cache) and rebuilt; values without a stable description turn
the disk cache off for the function."""
import os

import numpy as np
import pytest

import weft
from weft import _pyk_disk
from weft._pyk_api import _Compiler
from weft._pyk_frontend import parse
from weft._pyk_kernels import translate
from weft._pyk_types import ArrayT

SCALE = 3.0
F64 = (ArrayT("float64", 1), ArrayT("float64", 1))


def scaled(x, out):
    for i in weft.prange(len(x)):
        out[i] = x[i] * SCALE + 1


def make(k):
    def add_k(x, out):
        for i in weft.prange(len(x)):
            out[i] = x[i] + k
    return add_k


class Counting:
    """translate(), counting its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        return translate(*args)


def plain(c):
    """A translation's fields, its expressions as text (AST nodes compare by identity)."""
    import ast
    code = lambda n: None if n is None else ast.unparse(n)  # noqa: E731
    return (c.source, c.name, [(d.name, code(d.start), code(d.stop), code(d.step)) for d in c.dims], c.ret,
            c.writes, c.reductions, c.returns, c.returns_tuple, c.ret_tuple, c.sites,
            {k: code(v) for k, v in c.lets.items()})


def translated(func, types, counter):
    return _pyk_disk.translation(parse(func, "@weft.jit"), types, "entry", False, counter)


def records(name):
    return [e for e in weft.cache.entries() if e["backend"] == "pyk" and f" {name} (" in e["description"]]


def test_a_new_compiler_reads_the_translation_back():
    f = make(0.25)
    first, again = Counting(), Counting()
    a = translated(f, F64, first)
    b = translated(f, F64, again)
    assert first.calls + again.calls <= 1 and again.calls == 0  # (the first may find an older run's record)
    assert plain(b) == plain(a)
    assert records("add_k")


def test_the_key_follows_source_closure_constants_globals_and_types(monkeypatch):
    def key(func, types=F64):
        return _pyk_disk.key_text(parse(func, "@weft.jit"), types, "entry", False)
    base = key(make(0.25))
    assert key(make(0.25)) == base
    assert key(make(0.5)) != base  # a closure constant
    assert key(make(np.float32(0.25))) != base  # ... of another type
    assert key(make(0.25), (ArrayT("float32", 1), ArrayT("float32", 1))) != base  # argument types
    assert _pyk_disk.key_text(parse(make(0.25), "@weft.jit"), F64, "entry", True) != base  # bounds checks
    assert key(scaled) != base  # another source
    g = key(scaled)
    monkeypatch.setattr(__import__(__name__), "SCALE", 4.0)
    assert key(scaled) != g  # a global the body reads


def test_a_changed_constant_gets_its_own_translation():
    c = Counting()
    a = translated(make(1.5), F64, c)
    b = translated(make(2.5), F64, c)
    assert a.source != b.source
    assert "1.5" in a.source and "2.5" in b.source


def test_a_corrupt_record_is_ignored_and_rebuilt():
    f = make(0.75)
    translated(f, F64, Counting())
    key = _pyk_disk.key_text(parse(f, "@weft.jit"), F64, "entry", False)
    (entry,) = [e for e in records("add_k") if e["description"].endswith(_pyk_disk.short(key))]
    with open(entry["path"], "r+b") as fh:
        fh.seek(-8, os.SEEK_END)
        fh.write(b"\xff" * 8)  # the checksum no longer matches
    c = Counting()
    again = translated(f, F64, c)
    assert c.calls == 1 and "0.75" in again.source
    assert plain(_pyk_disk.decode(_payload(entry["path"]))) == plain(again)  # stored anew


def _payload(path):
    """The JSON payload inside an entry (the last '{' ... '}' run of the file)."""
    data = open(path, "rb").read()
    return data[data.index(b'{"format"'):data.rindex(b"}") + 1]


def test_a_record_of_another_format_is_ignored():
    assert _pyk_disk.decode(b'{"format": 999}') is None
    assert _pyk_disk.decode(b"not json") is None
    assert _pyk_disk.decode(b'{"format": 1, "source": "x"}') is None


class Opaque:
    factor = 2.0


OPAQUE = Opaque()


def uses_opaque(x, out):
    for i in weft.prange(len(x)):
        out[i] = x[i] * OPAQUE.factor


def test_a_value_without_a_stable_description_turns_the_disk_cache_off():
    assert _pyk_disk.key_text(parse(uses_opaque, "@weft.jit"), F64, "entry", False) is None
    assert _pyk_disk.describe(Opaque) is None and _pyk_disk.describe(len) == "builtin_function_or_method:builtins.len"
    c = Counting()
    translated(uses_opaque, F64, c)
    translated(uses_opaque, F64, c)
    assert c.calls == 2


def test_results_from_a_read_back_translation(device):
    x = np.arange(5, dtype=np.float64)
    for _ in range(2):  # the second jit of the same function reads the translation from disk
        f = weft.jit(make(0.5))
        out = np.zeros(5)
        with device:
            f(x, out)
        np.testing.assert_array_equal(out, x + 0.5)


def test_plan_metadata_survives_the_round_trip():
    def total(x):
        s = 0.0
        n = len(x) - 1
        for i in weft.prange(n):
            s += x[i]
        return s
    p = parse(total, "@weft.jit")
    c = translate(p, (ArrayT("float64", 1),), "entry", True)
    back = _pyk_disk.decode(_pyk_disk.encode(c))
    assert back is not None and plain(back) == plain(c)
    assert c.dims and c.reductions and c.sites and c.lets and c.returns == "s"
    comp = _Compiler(p, "entry", True)
    assert comp.compiled((ArrayT("float64", 1),)).source == c.source


def test_records_round_trip_and_their_folder_is_checked():
    key = "test record " + str(os.getpid())
    assert weft._weft._cache_store_record("pyk-test", key, "a test record", b"\x00payload\xff")
    assert weft._weft._cache_load_record("pyk-test", key) == b"\x00payload\xff"
    assert weft._weft._cache_load_record("pyk-test", key + " other") is None
    for bad in ("", "../pyk", "a/b", "x" * 33):
        with pytest.raises(weft.InvalidArgument, match="cache record folder"):
            weft._weft._cache_load_record(bad, key)


def caller_of(k):
    @weft.jit
    def helper(v):
        return v * k

    def call_helper(x, out):
        for i in weft.prange(len(x)):
            out[i] = helper(x[i])
    return call_helper


def test_the_key_follows_the_jit_functions_the_body_calls():
    def key(func):
        return _pyk_disk.key_text(parse(func, "@weft.jit"), F64, "entry", False)
    assert key(caller_of(2.0)) == key(caller_of(2.0))
    assert key(caller_of(2.0)) != key(caller_of(3.0))  # the callee's closure constant
    assert key(caller_of(2.0)) is not None
