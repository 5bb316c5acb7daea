"""The README's scikit-learn example runs as written (a doctest of its ``>>>`` lines)."""

import doctest
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.fast
@pytest.mark.sklearn
def test_readme_scikit_learn_example():
    text = README.read_text()
    assert "## With scikit-learn" in text and ">>> search = GridSearchCV(" in text
    result = doctest.testfile(str(README), module_relative=False, verbose=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 15 and result.failed == 0, result
