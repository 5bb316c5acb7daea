"""pytest runs every conformance check with its ``quick`` instance count."""

import pytest

from conformance._harness import discover, run

THEOREMS = discover(include_fast=True)


def _param(theorem):
    marks = [pytest.mark.fast] if theorem.needs_fast else []
    return pytest.param(theorem, id=f"{theorem.number:02d}-{theorem.title}", marks=marks)


@pytest.mark.parametrize("theorem", [_param(t) for t in THEOREMS])
def test_theorem_holds_on_every_instance(theorem):
    result = run(theorem, theorem.quick)
    assert result.tried == theorem.quick
    assert result.held == result.tried, (
        f"{result.tried - result.held} of {result.tried} instances failed; smallest: "
        f"{result.failure_text}; errors: {result.errors[:3]}")
