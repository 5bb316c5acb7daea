"""The package contract: public names, the standard-library-only rule, the CLI."""

import importlib
import subprocess
import sys

import pytest

from refml._names import PUBLIC_NAMES

# Chapters that have landed: every public name of these modules must exist in both packages.
LANDED = ["base", "losses", "distributions", "bayes", "perceptron", "neighbors"]


def test_import_refml_loads_no_third_party_package():
    code = ("import sys, refml\n"
            "from refml import *\n"
            "bad = [m for m in ('numpy', 'numba', 'scipy') if m in sys.modules]\n"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "", f"import refml loaded {out}"


@pytest.mark.parametrize("module", LANDED)
def test_landed_public_names_exist_in_refml(module):
    import refml

    for name in PUBLIC_NAMES[module]:
        if module == "metrics" and name == "bias_variance_decomposition":
            continue
        assert hasattr(refml, name), f"refml lacks {name}"


@pytest.mark.fast
@pytest.mark.parametrize("module", LANDED)
def test_landed_public_names_exist_in_refml_fast(module):
    import refml
    import refml_fast

    for name in PUBLIC_NAMES[module]:
        fast, reference = getattr(refml_fast, name), getattr(refml, name)
        if isinstance(reference, type) and reference.__module__.startswith("refml."):
            assert issubclass(fast, reference), f"refml_fast.{name} must subclass refml.{name}"


def test_every_exported_name_resolves():
    for package in ("refml",):
        lib = importlib.import_module(package)
        for name in lib.__all__:
            getattr(lib, name)
