"""Small helpers shared by the test modules."""

import os
import subprocess
import sys

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def as_list(values):
    """Predictions or arrays from either package as plain Python lists (nested for 2-D)."""
    return values.tolist() if hasattr(values, "tolist") else list(values)


def run_python(code, check=True, **environment):
    """``python -c code`` in a fresh interpreter at the repository root, with extra
    environment variables: the completed process (returncode, stdout, stderr)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=check, cwd=REPOSITORY, env=dict(os.environ, **environment))


def compiled_and_plain(code):
    """The output of ``code`` with the Numba kernels compiled, and run as plain Python
    (NUMBA_DISABLE_JIT=1, docs/style.md rule 8)."""
    return (run_python(code, NUMBA_DISABLE_JIT="0").stdout,
            run_python(code, NUMBA_DISABLE_JIT="1").stdout)


def assert_forest_members_are_refmls_trees(X, y, **settings):
    """refml_fast's and refml's RandomForestClassifier(**settings) on X, y (numpy arrays):
    member by member the same features, thresholds and class weights at every node."""
    import refml
    import refml_fast

    fast = refml_fast.RandomForestClassifier(**settings).fit(X, y)
    reference = refml.RandomForestClassifier(**settings).fit(X.tolist(), y.tolist())
    for a, b in zip(fast.estimators_, reference.estimators_):
        assert a.tree_.feature.tolist() == b.tree_.feature
        assert a.tree_.threshold.tolist() == b.tree_.threshold
        assert a.tree_.value.tolist() == b.tree_.value
