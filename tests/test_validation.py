"""The shared validation module, and refml_fast's numpy converter against it.

Every bad input must give the same exception type and message from both converters
(docs/design.md section 5); good input must come out unchanged in value and never be mutated.
"""

import math

import pytest

from refml.core import validation

# Inputs that must be rejected, with the exception and the words of its message.
BAD_X = [
    ("scalar", 3.0, ValueError, "Expected 2D"),
    ("1-D list", [1.0, 2.0, 3.0], ValueError, "Expected 2D"),
    ("strings as rows", ["ab", "cd"], ValueError, "Expected 2D"),
    ("empty list", [], ValueError, "0 sample(s)"),
    ("rows of length 0", [[], []], ValueError, "0 feature(s)"),
    ("ragged", [[1.0, 2.0], [3.0]], ValueError, "inconsistent"),
    ("row and scalar mixed", [[1.0], 2.0], ValueError, "inconsistent"),
    ("3-D", [[[1.0]], [[2.0]]], ValueError, "Expected 2D"),
    ("NaN", [[1.0, float("nan")]], ValueError, "NaN"),
    ("infinity", [[1.0], [float("-inf")]], ValueError, "infinity"),
    ("NaN before infinity", [[float("inf")], [float("nan")]], ValueError, "NaN"),
    ("complex", [[1 + 2j]], ValueError, "Complex data not supported"),
    ("dict element", [[{"a": 1}]], TypeError, "argument must be a string or a number"),
    ("string element", [["1.5"]], ValueError, "str"),
    ("None element", [[None]], ValueError, "NoneType"),
    ("integer too large for a float", [[10 ** 400]], ValueError, "infinity"),
]


@pytest.mark.parametrize("case", BAD_X, ids=[c[0] for c in BAD_X])
def test_as_matrix_rejects(case):
    _, X, exception, words = case
    with pytest.raises(exception, match=_re(words)):
        validation.as_matrix(X)


@pytest.mark.fast
@pytest.mark.parametrize("case", BAD_X, ids=[c[0] for c in BAD_X])
def test_fast_converter_rejects_lists_identically(case):
    from refml_fast.core import arrays as _arrays

    _, X, exception, words = case
    with pytest.raises(exception) as reference:
        validation.as_matrix(X)
    with pytest.raises(exception) as fast:
        _arrays.as_matrix(X)
    assert str(fast.value) == str(reference.value)


@pytest.mark.fast
@pytest.mark.parametrize("case", [c for c in BAD_X if c[0] not in (
    "row and scalar mixed", "None element", "integer too large for a float", "strings as rows",
    "ragged", "complex", "string element", "dict element")], ids=lambda c: c[0])
def test_fast_converter_rejects_numeric_arrays_identically(case):
    import numpy as np

    from refml_fast.core import arrays as _arrays

    _, X, exception, words = case
    array = np.array(X, dtype=np.float64)
    with pytest.raises(exception) as reference:
        validation.as_matrix(X)
    with pytest.raises(exception) as fast:
        _arrays.as_matrix(array)
    assert str(fast.value) == str(reference.value)


@pytest.mark.fast
def test_fast_converter_complex_array_is_refused_as_scikit_learn_words_it():
    import numpy as np

    from refml_fast.core import arrays as _arrays

    with pytest.raises(ValueError, match="Complex data not supported"):
        _arrays.as_matrix(np.array([[1 + 1j]]))


def _re(words):
    import re
    return re.escape(words)


def test_as_matrix_converts_and_copies():
    rows = [(1, 2), [True, 3.5]]
    matrix = validation.as_matrix(rows)
    assert matrix == [[1.0, 2.0], [1.0, 3.5]]
    assert all(isinstance(v, float) for row in matrix for v in row)
    matrix[0][0] = 99.0
    assert rows[0] == (1, 2)


def test_as_matrix_accepts_generators_and_fractions():
    from fractions import Fraction

    assert validation.as_matrix(([Fraction(1, 4), 2] for _ in range(2))) == [[0.25, 2.0]] * 2


@pytest.mark.fast
def test_lists_of_numpy_rows_and_scalars_are_ordinary_data():
    import numpy as np

    expected = [[1.0, 2.0], [3.0, 4.0]]
    assert validation.as_matrix(list(np.array(expected))) == expected
    assert validation.as_matrix([[np.float64(1.0), np.int64(2)], [np.float32(3.0), 4]]) == expected
    assert validation.as_labels(list(np.array([2, 1, 2]))) == [2, 1, 2]
    assert validation.as_labels([np.str_("b"), np.str_("a")]) == ["b", "a"]
    with pytest.raises(ValueError, match="Complex data not supported"):
        validation.as_matrix([[np.complex128(1 + 1j)]])
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        validation.as_labels([np.float64(0.5), np.float64(1.0)])


@pytest.mark.fast
def test_fast_converter_leaves_arrays_untouched():
    import numpy as np

    from refml_fast.core import arrays as _arrays

    X = np.asfortranarray(np.arange(6, dtype=np.int32).reshape(3, 2))
    before = X.copy()
    out = _arrays.as_matrix(X)
    assert out.dtype == np.float64 and out.flags.c_contiguous
    assert np.array_equal(X, before) and np.array_equal(out, before.astype(float))
    assert out.tolist() == validation.as_matrix(X)


BAD_Y = [
    ("NaN", [0.0, float("nan")], "NaN"),
    ("infinity", [0.0, float("inf")], "infinity"),
    ("continuous", [0.0, 0.5], "Unknown label type"),
    ("strings mixed with numbers", ["a", 1], "Unknown label type"),
    ("2-D", [[0, 1], [1, 0]], "1d"),
    ("scalar", 3, "1d"),
    ("complex", [1j, 2j], "Unknown label type"),
]


@pytest.mark.parametrize("case", BAD_Y, ids=[c[0] for c in BAD_Y])
def test_as_labels_rejects(case):
    _, y, words = case
    with pytest.raises(ValueError, match=_re(words)):
        validation.as_labels(y)


def test_labels_integral_floats_bools_and_strings_are_accepted():
    assert validation.as_labels([1.0, 0.0]) == [1.0, 0.0]
    assert validation.as_labels((True, False)) == [True, False]
    assert validation.as_labels("ab" for _ in range(2)) == ["ab", "ab"]


def test_encode_labels_sorts_classes_and_codes_positions():
    classes, codes = validation.encode_labels(["b", "a", "c", "a"])
    assert classes == ["a", "b", "c"] and codes == [1, 0, 2, 0]


def test_check_scalar_names_the_parameter_and_range():
    assert validation.check_scalar(3, "k", "int", low=1) == 3
    with pytest.raises(ValueError, match=r"Invalid parameter k=0: must be in \[1, inf\]"):
        validation.check_scalar(0, "k", "int", low=1)
    with pytest.raises(ValueError, match=r"C=0.0: must be in \(0, inf\]"):
        validation.check_scalar(0.0, "C", "real", low=0, low_open=True)
    with pytest.raises(ValueError, match="an integer"):
        validation.check_scalar(2.5, "k", "int")
    with pytest.raises(ValueError, match="an integer"):
        validation.check_scalar(True, "k", "int")
    with pytest.raises(ValueError, match="NaN"):
        validation.check_scalar(math.nan, "C", "real")
    with pytest.raises(ValueError, match="one of 'a', 'b'"):
        validation.check_option("c", "order", ("a", "b"))
