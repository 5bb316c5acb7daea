"""Sums of floats add left to right, one rounding per addition, on every Python.

Python's ``sum`` of floats compensates its rounding from Python 3.12 on (Neumaier's
algorithm), so ``sum(values)`` differs by its rounding between Python 3.11 and 3.12, while
refml_fast's kernels add in a loop: a float sum in refml must be ``linalg.total`` (or
``linalg.dot``), or its floats would depend on the Python (``factor_product``, H = L L',
gave other last bits on Python 3.12 than on 3.11 for random factors). The check reads the
sources: the builtin ``sum`` is left to integer counts (``sum(1 for ...)`` and the reviewed
integer sums below) and to exact Fractions (a start value given). The tour and the gallery,
which report rather than answer, are not read."""

import ast
import math
from pathlib import Path

from refml.core import linalg

ROOT = Path(__file__).resolve().parents[1]
READ = ("refml", "refml_fast")
NOT_READ = ("refml/tour", "refml/gallery")
# (file, the call as Python writes it): sums of Python ints, reviewed.
INTEGER_SUMS = {
    ("refml/discriminant/analysis.py", "sum(stream['counts'])"),   # class counts n_k
    ("refml/discriminant/analysis.py", "sum(counts)"),
    ("refml/svm/separator.py", "sum((math.comb(n, k) for k in range(1, min(n, D) + 1)))"),
    ("refml_fast/runtime/threads.py",
     "sum((after[tid] - before[tid] for tid in after if tid in before))"),   # nanoseconds
    ("refml_fast/runtime/lanes.py",
     "sum((1 << lane for lane in range(u.shape[0]) if u[lane] <= v[lane]))"),
    ("refml_fast/ensemble/committees.py", "sum(sizes)"),               # node counts
    ("refml_fast/linear/logistic_hessian.py", "sum(group_cost)"),      # column counts
}


def builtin_sums():
    for package in READ:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name.startswith(NOT_READ):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                        node.func.id == "sum":
                    yield name, node


def counts_ones(call):
    """sum(1 for ...): a count."""
    argument = call.args[0] if call.args else None
    return isinstance(argument, ast.GeneratorExp) and \
        isinstance(argument.elt, ast.Constant) and argument.elt.value == 1


def test_floats_are_never_summed_by_the_builtin_sum():
    found = list(builtin_sums())
    assert len(found) > len(INTEGER_SUMS)       # the reader sees the sources
    others = [(name, ast.unparse(call)) for name, call in found
              if not counts_ones(call) and len(call.args) < 2
              and (name, ast.unparse(call)) not in INTEGER_SUMS]
    assert others == []
    seen = {(name, ast.unparse(call)) for name, call in found}
    assert INTEGER_SUMS <= seen                 # no stale entry


def test_total_adds_left_to_right_with_one_rounding_each():
    """1 + 2^-53 rounds to 1 (to even), twice; a compensated sum gives 1 + 2^-52."""
    tiny = 2.0 ** -53
    assert linalg.total([1.0, tiny, tiny]) == 1.0
    assert math.fsum([1.0, tiny, tiny]) == 1.0 + 2.0 ** -52
    assert linalg.total([tiny, tiny, 1.0]) == 1.0 + 2.0 ** -52     # order decides
    assert linalg.total([]) == 0.0 and linalg.total(iter([0.5, 0.25])) == 0.75
