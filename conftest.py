"""Shared pytest fixtures: ``lib`` runs a test once per package.

The refml_fast case carries the ``fast`` marker: the bare, standard-library-only CI run
deselects it with ``-m "not fast"`` (it is deselected there, never skipped and counted).
"""

import importlib
import os

import pytest

# scikit-learn's check_array_api_input runs (instead of skipping) only when scipy is imported
# with its array API switch on; set before anything imports scipy.
os.environ.setdefault("SCIPY_ARRAY_API", "1")
# The tests test refml_fast's kernels: refml_fast never answers with refml's code first here
# (refml_fast.runtime.spec_first); tests/test_spec_first.py turns it on where it is tested.
os.environ["REFML_SPEC_FIRST"] = "0"

# Modules that build their parameters from scikit-learn or numpy at collection time (numpy
# scalars as hyper-parameters, for test_conventions).  Every test in them is marked sklearn.
# The bare, standard-library-only run deselects their tests by marker (-m "not fast and
# not sklearn"); there, and only there, they are not even collected.  In every other run a
# missing scikit-learn or numpy fails the collection loudly.
_SKLEARN_MODULES = {"test_sklearn_checks.py", "test_conventions.py"}


def pytest_ignore_collect(collection_path, config):
    markexpr = config.getoption("markexpr") or ""
    if collection_path.name in _SKLEARN_MODULES and "not sklearn" in markexpr:
        return True
    return None


@pytest.fixture(params=["refml", pytest.param("refml_fast", marks=pytest.mark.fast)])
def lib(request):
    """The package under test: refml, then refml_fast."""
    return importlib.import_module(request.param)

