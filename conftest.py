"""Shared pytest fixtures: ``lib`` runs a test once per package.

The refml_fast case carries the ``fast`` marker: the bare, standard-library-only CI run
deselects it with ``-m "not fast"`` (it is deselected there, never skipped and counted).
"""

import importlib

import pytest


@pytest.fixture(params=["refml", pytest.param("refml_fast", marks=pytest.mark.fast)])
def lib(request):
    """The package under test: refml, then refml_fast."""
    return importlib.import_module(request.param)

