"""The package contract: public names, the standard-library-only rule, the CLI."""

import importlib
import subprocess
import sys

import pytest

from refml.core.names import PUBLIC_NAMES

# Every chapter of docs/design.md section 6: each public name must exist in both packages.
LANDED = list(PUBLIC_NAMES)


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
        assert hasattr(refml, name), f"refml lacks {name}"


@pytest.mark.fast
@pytest.mark.parametrize("module", LANDED)
def test_landed_public_names_exist_in_refml_fast(module):
    import refml
    import refml_fast

    for name in PUBLIC_NAMES[module]:
        assert hasattr(refml_fast, name), f"refml_fast lacks {name}"
        fast, reference = getattr(refml_fast, name), getattr(refml, name)
        if isinstance(reference, type) and reference.__module__.startswith("refml."):
            assert issubclass(fast, reference), f"refml_fast.{name} must subclass refml.{name}"


def test_every_exported_name_resolves():
    lib = importlib.import_module("refml")
    assert sorted(lib.__all__) == sorted(n for names in PUBLIC_NAMES.values() for n in names)
    for name in lib.__all__:
        getattr(lib, name)


@pytest.mark.parametrize("chapter", [m for m in PUBLIC_NAMES if "." not in m])
def test_every_name_a_chapter_exports_is_in_the_root_table(chapter):
    """docs/design.md section 6: every public name is importable from its chapter and from
    the package root, so the table the root reads lists each chapter's __all__."""
    module = importlib.import_module(f"refml.{chapter}")
    assert sorted(module.__all__) == sorted(PUBLIC_NAMES[chapter])


@pytest.mark.fast
def test_refml_fast_exports_the_same_names():
    import refml
    import refml_fast

    assert refml_fast.__all__ == refml.__all__


def _tour(*flags):
    return subprocess.run([sys.executable, "-m", "refml", "tour", *flags],
                          capture_output=True, text=True, check=True).stdout


def test_tour_runs_every_section_on_refml():
    from refml.tour import SECTIONS

    out = _tour()
    assert f"refml tour on refml: {len(SECTIONS)} section(s)" in out
    assert "R^2/delta^2" in out and "Bayes risk" in out


@pytest.mark.fast
def test_tour_runs_every_section_on_refml_fast():
    from refml.tour import SECTIONS

    assert f"refml tour on refml_fast: {len(SECTIONS)} section(s)" in _tour("--fast")
