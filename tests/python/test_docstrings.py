"""Every public name's docstring (issue 32): every name of weft.__all__ has one, and the
names documented with an example (a doctest, run by scripts/docs.sh) only grow: a name in
NOT_YET that gains an example must leave the list, and a name outside it must keep its
example."""
import weft

# NumPy's dtypes and the Array API's constants: NumPy's objects and plain numbers.
CONSTANTS = {"bool", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float32", "float64", "complex64", "complex128", "e", "inf", "nan", "pi", "newaxis"}

# Names whose docstrings have no example yet (the next ones to write): none now; a new public
# name comes with its example.
NOT_YET: set[str] = set()


def _doc(name):
    return getattr(getattr(weft, name), "__doc__", None) or ""


def test_every_public_name_has_a_docstring():
    missing = [n for n in weft.__all__ if n not in CONSTANTS and not _doc(n).strip()]
    assert not missing, f"no docstring: {missing}"


def test_names_documented_with_an_example_only_grow():
    without = {n for n in weft.__all__ if n not in CONSTANTS and ">>>" not in _doc(n)}
    assert without - NOT_YET == set(), f"these lost their example (or are new without one): {sorted(without - NOT_YET)}"
    assert NOT_YET - without == set(), f"these have an example now: remove them from NOT_YET: {sorted(NOT_YET - without)}"


def test_examples_are_numpy_style_sections():
    # The reference renders them through napoleon: the example is an Examples section.
    for name in weft.__all__:
        doc = _doc(name)
        if name not in CONSTANTS and ">>>" in doc:
            assert "Examples\n" in doc and "--------" in doc, name
