"""Python kernels (issue 28): every construct outside the subset is refused with weft.Unsupported
naming the file, line and column and what to write instead, at decoration or at the first
call (here: weft.show_source, which translates without running)."""
import pathlib
import re

import numpy as np
import pytest

import weft

_LINES = pathlib.Path(__file__).read_text().splitlines()


def where(marker, token):
    """'test_pykernels_refusals.py:LINE:COL' of token on the line ending with '# marker'."""
    for n, line in enumerate(_LINES, 1):
        if line.rstrip().endswith("# " + marker):
            return f"test_pykernels_refusals.py:{n}:{line.index(token) + 1}"
    raise AssertionError(marker)


def refused(marker, token, *words):
    return pytest.raises(weft.Unsupported, match=re.escape(where(marker, token)) + ".*" +
                         ".*".join(re.escape(w) for w in words))


def test_lambda():
    with refused("r-lambda", "lambda", "lambdas are not supported", "@weft.jit function"):
        @weft.jit
        def f(x):
            g = lambda y: y  # noqa: E731  # r-lambda
            return g


def test_list_comprehension():
    with refused("r-listcomp", "[", "list comprehensions", "for loop"):
        @weft.jit
        def f(x):
            return [x for _ in range(3)]  # r-listcomp


def test_try():
    with refused("r-try", "try", "'try' blocks are not supported"):
        @weft.jit
        def f(x):
            try:  # r-try
                return x
            finally:
                pass


def test_strings():
    with refused("r-str", "'a'", "strings are not supported"):
        @weft.jit
        def f(x):
            return 'a'  # r-str


def test_keyword_arguments():
    with refused("r-kw", "b=", "keyword arguments", "by position"):
        @weft.jit
        def f(x):
            return min(x, b=1)  # r-kw


def test_for_else():
    with refused("r-forelse", "x", "'for ... else'", "flag"):
        @weft.jit
        def f(x):
            for i in range(3):
                pass
            else:
                x = 1  # r-forelse
            return x


def test_star_args():
    with pytest.raises(weft.Unsupported, match=r"test_pykernels_refusals\.py:\d+.*\*args"):
        @weft.jit
        def f(*x):
            return 1


def test_widening_assignment():
    @weft.jit
    def f(n):
        x = 0
        x = n / 2  # r-widen
        return x
    with refused("r-widen", "x = n", "'x' is int64", "float64", "x = 0.0"):
        weft.show_source(f, int)


def test_reduction_in_prange():
    @weft.jit
    def f(a):
        s = 0.0
        for i in weft.prange(len(a)):
            s = s + a[i]  # r-reduce
    with refused("r-reduce", "s = s", "'s' is assigned inside a weft.prange loop", "not as a reduction",
                 "s += e"):
        weft.show_source(f, "float64[:]")


def test_break_out_of_prange():
    @weft.jit
    def f(a):
        for i in weft.prange(len(a)):
            if a[i] > 0:
                break  # r-break
            a[i] = 1
    with refused("r-break", "break", "'break' out of a weft.prange loop", "continue"):
        weft.show_source(f, "float64[:]")


def test_tuple_index_must_be_constant():
    @weft.jit
    def f(t, k):
        return t[k]  # r-tindex
    with refused("r-tindex", "k]", "constant integer indices"):
        weft.show_source(f, ("int64", "int64"), int)


def test_unknown_function():
    @weft.jit
    def f(x):
        return print(x)  # r-print
    with refused("r-print", "print", "cannot be called in a kernel", "@weft.jit"):
        weft.show_source(f, int)


def test_undefined_variable():
    @weft.jit
    def f(x):
        if x > 0:
            y = 1
        return z  # noqa: F821  # r-undef
    with refused("r-undef", "z", "'z' is used before it is assigned"):
        weft.show_source(f, int)


def test_and_of_numbers_as_a_value():
    @weft.jit
    def f(x, y):
        return x and y  # r-and
    with refused("r-and", "x and", "'and' of int64 values", "x != 0"):
        weft.show_source(f, int, int)


def test_integer_power_with_a_variable_exponent():
    @weft.jit
    def f(x, n):
        return x ** n  # r-pow
    with refused("r-pow", "x **", "integer power", "float(a) ** b"):
        weft.show_source(f, int, int)


def test_statements_after_the_prange_loop():
    @weft.jit
    def f(a):
        for i in weft.prange(len(a)):
            a[i] = 0
        a[0] = 1  # r-after
    with refused("r-after", "a[0]", "statements after the function's weft.prange loop"):
        weft.show_source(f, "float64[:]")


@weft.jit
def recurse(n):
    if n <= 1:
        return 1
    return n * recurse(n - 1)  # r-recurse


def test_recursion():
    with refused("r-recurse", "recurse(n", "calls itself", "loop"):
        weft.show_source(recurse, int)


def test_float_index():
    @weft.jit
    def f(a, x):
        return a[x]  # r-findex
    with refused("r-findex", "x]", "an index of type float64", "int(x)"):
        weft.show_source(f, "float64[:]", float)


def test_list_argument_is_a_type_error():
    @weft.jit
    def f(a):
        return a
    with pytest.raises(TypeError, match="argument 'a' is a list"):
        f([1, 2])


def test_kernel_returns_no_value():
    @weft.kernel
    def k(a):
        return 1  # r-kret
    with refused("r-kret", "return", "returns no value", "output array"):
        weft.show_source(k, "float64[:]")


def test_kernel_takes_numpy_arrays(device):
    # (no longer refused: used in place on the host backend, copied to and back from other devices)
    @weft.kernel
    def k(a):
        a[weft.global_id(0)] = 1
    x = np.zeros(4)
    k(device, (2,), None, x[::2])
    np.testing.assert_array_equal(x, [1, 0, 1, 0])


def test_reduction_read_inside_the_loop():
    @weft.jit
    def f(a, out):
        s = 0.0
        for i in weft.prange(len(a)):
            s += a[i]
            out[i] = s  # r-redread
        return s
    with refused("r-redread", "s  #", "'s' is a reduction of the weft.prange loop", "after the loop"):
        weft.show_source(f, "float64[:]", "float64[:]")


def test_source_must_be_available():
    namespace = {}
    exec("def f(x):\n    return x\n", namespace)
    with pytest.raises(weft.Unsupported, match="source of 'f' is not available.*define the function in a file"):
        weft.jit(namespace["f"])


def test_defaults_and_annotations_must_be_kernel_types():
    with pytest.raises(weft.Unsupported, match=r"test_pykernels_refusals\.py:\d+.*'y' has a default of type str"):
        @weft.jit
        def f(x, y="a"):
            return x

    @weft.jit
    def g(x: list):
        return 1
    with pytest.raises(weft.Unsupported, match=r"parameter 'x' of 'g' is annotated .*list.*tuple\[int, int\]"):
        g([1])


def test_variables_keep_their_kind():
    @weft.jit
    def f(a, t):
        r = a[0]
        r = t  # r-kind
        return 1
    with refused("r-kind", "r = t", "'r' is float64 and cannot become (int64, int64)", "another variable name"):
        weft.show_source(f, "float64[:]", ("int64", "int64"))


def test_group_functions_belong_to_kernels():
    @weft.jit
    def f(a):
        for i in weft.prange(len(a)):
            weft.barrier()  # r-barrier
    with refused("r-barrier", "weft.barrier", "weft.barrier is for @weft.kernel bodies"):
        weft.show_source(f, "int32[:]")

    @weft.kernel
    def k(a):
        weft.atomic_add(a, 0, 1)  # r-atomic16
    with refused("r-atomic16", "weft.atomic_add", "weft.atomic_add on int16 elements", "int32, uint32, int64"):
        weft.show_source(k, "int16[:]")

    @weft.kernel
    def k1(a):
        weft.atomic_inc(a, 0)  # r-incf
    with refused("r-incf", "weft.atomic_inc", "weft.atomic_inc on float32 elements", "int32, uint32, int64 or uint64"):
        weft.show_source(k1, "float32[:]")

    @weft.kernel
    def k3(a):
        weft.atomic_cas(a, 0, 1)  # r-cas
    with refused("r-cas", "weft.atomic_cas", "weft.atomic_cas takes (array, index, expected, value)"):
        weft.show_source(k3, "int32[:]")

    @weft.kernel
    def k2(a, n):
        tile = weft.local_array(n, np.float32)  # r-localn
        tile[0] = 1
    with refused("r-localn", "n,", "shape must be positive integer constants"):
        weft.show_source(k2, "float32[:]", int)


# Each construct outside the subset, in a module of its own: (body line, token, words of the message).
CONSTRUCTS = [
    ("with open('f') as g: pass", "with", "'with' blocks"),
    ("raise ValueError(x)", "raise", "'raise'"),
    ("import math", "import", "imports"),
    ("global y", "global", "'global'"),
    ("del x", "del", "'del'"),
    ("assert x > 0", "assert", "'assert'"),
    ("class C: pass", "class", "classes"),
    ("def g(): return 1", "def g", "nested functions"),
    ("y = {1: 2}", "{", "dicts are not supported"),
    ("y = {1, 2}", "{", "sets are not supported"),
    ("y = [1, 2]", "[", "lists are not supported"),
    ("y = f'{x}'", "f'", "f-strings"),
    ("y = (z := 3)", "z :=", "':=' (walrus)"),
    ("y = sum(v for v in range(3))", "(v for", "generator expressions"),
    ("y = {v: v for v in range(3)}", "{", "dict comprehensions"),
    ("y = x[1:2]", "1:2", "slices"),
    ("y = 1j", "1j", "complex numbers"),
    ("while x: x -= 1\n    else: pass", "pass", "'while ... else'"),
    ("yield x", "yield", "'yield'"),
]


@pytest.mark.parametrize("line, token, words", CONSTRUCTS, ids=[c[2] for c in CONSTRUCTS])
def test_each_construct_outside_the_subset_is_refused_at_decoration(tmp_path, line, token, words):
    import importlib.util
    path = tmp_path / "construct.py"
    path.write_text(f"import weft\n\n\n@weft.jit\ndef f(x):\n    {line}\n    return x\n")
    lines = path.read_text().splitlines()
    n = next(i for i, s in enumerate(lines, 1) if token in s and not s.startswith(("import", "@", "def f")))
    col = lines[n - 1].index(token) + 1
    spec = importlib.util.spec_from_file_location("construct", path)
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(weft.Unsupported, match=re.escape(f"construct.py:{n}:{col}: in Python kernel 'f': {words}")):
        spec.loader.exec_module(module)


def test_prange_bounds_must_be_computable_on_the_host():
    @weft.jit
    def f(a):
        n = 0
        n = len(a)
        for i in weft.prange(n):  # r-bound
            a[i] = 0
    with refused("r-bound", "n)", "the weft.prange bound 'n' uses the local variable 'n', which is not assigned "
                 "once", "directly or through variables assigned once before the loop"):
        weft.show_source(f, "float64[:]")
