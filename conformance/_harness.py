"""The conformance harness: random instances, a slack per instance, the smallest failure.

A ``Theorem`` draws instance i from its own seeded generator (so any instance can be
replayed alone), checks it, and returns a *slack*: how far the instance is from violating
the statement (>= 0 holds; < 0 is a counter-example).  For an inequality a <= b the slack is
b - a; for an identity it is minus the discrepancy beyond the stated tolerance; for parity it
is minus the number of disagreeing predictions.
"""

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable

from refml.core.random import Generator


@dataclass
class Theorem:
    number: int                     # item of docs/design.md section 7
    title: str
    source: str                     # lecture file and section
    make_instance: Callable         # Generator -> instance
    check: Callable                 # instance -> slack (>= 0 holds)
    size: Callable = len            # instance -> size, to report the smallest failure
    describe: Callable = repr       # instance -> text printed on failure
    quick: int = 100                # instances under pytest
    default: int = 300              # instances under python -m conformance
    full: int = 3000                # instances under python -m conformance --full
    needs_fast: bool = False        # needs refml_fast (numba, numpy)
    module: str = ""                # the conformance module defining it (set by discover)


@dataclass
class Result:
    theorem: Theorem
    tried: int = 0
    held: int = 0
    worst_slack: float = float("inf")
    smallest_failure: Any = None
    failure_text: str = ""
    errors: list = field(default_factory=list)

    @property
    def ok(self):
        return self.tried > 0 and self.held == self.tried


def instance_generator(theorem, index, seed=0):
    """The generator of instance ``index``: independent of every other instance."""
    return Generator((seed * 1_000_003 + theorem.number) * 1_000_000_007 + index)


def run(theorem, n_instances, seed=0, progress=None):
    """Check ``n_instances`` random instances; the smallest failing one is kept."""
    result = Result(theorem)
    for index in range(n_instances):
        instance = theorem.make_instance(instance_generator(theorem, index, seed))
        try:
            slack = float(theorem.check(instance)) + 0.0  # + 0.0 turns -0.0 into 0.0
        except Exception as error:  # an exception is a failure of the instance
            slack = float("-inf")
            result.errors.append(f"instance {index}: {type(error).__name__}: {error}")
        result.tried += 1
        result.worst_slack = min(result.worst_slack, slack)
        if slack >= 0:
            result.held += 1
        elif (result.smallest_failure is None
              or theorem.size(instance) < theorem.size(result.smallest_failure)):
            result.smallest_failure = instance
            result.failure_text = (f"instance {index} (slack {slack!r}): "
                                   f"{theorem.describe(instance)}")
        if progress is not None:
            progress(theorem, index + 1, n_instances)
    return result


def discover(include_fast=True):
    """Every Theorem in the conformance package, in the order of docs/design.md section 7."""
    import conformance

    theorems = []
    for info in pkgutil.iter_modules(conformance.__path__):
        if info.name[0] == "t" and info.name[1:3].isdigit():
            module = importlib.import_module(f"conformance.{info.name}")
            for theorem in module.THEOREMS:
                theorem.module = info.name
            theorems.extend(module.THEOREMS)
    if not include_fast:
        theorems = [t for t in theorems if not t.needs_fast]
    return sorted(theorems, key=lambda t: t.number)
