"""The mutation run's bookkeeping (conformance.mutants): mutants are identified by what
they change, and every mutant judged equivalent still exists as written."""

import ast
import os

import pytest

from conformance import mutants
from conformance.equivalent_mutants import EQUIVALENT


def identities(path):
    return {mutants.mutant_of(path, index)[3] for index in range(mutants.site_count(path))}


@pytest.mark.parametrize("path", sorted({key[0] for key in EQUIVALENT}))
def test_every_mutant_judged_equivalent_can_still_be_drawn(path):
    found = identities(path)
    for key in EQUIVALENT:
        if key[0] == path:
            assert key in found, key


def test_a_mutant_names_its_function_fault_and_mutated_expression():
    path = "refml/svm/one_vs_one.py"
    source, line, fault, identity = mutants.mutant_of(path, 0)
    ast.parse(source)
    assert identity[0] == path and identity[2] == fault
    assert identity[1] in {node.name for node in ast.walk(ast.parse(source))
                           if isinstance(node, ast.FunctionDef)}
    assert (source, line, fault) == mutants.mutated_source(path, 0)
    with open(os.path.join(mutants.ROOT, path), encoding="utf-8") as file:
        assert source != ast.unparse(ast.parse(file.read())) + "\n"


def test_a_judged_equivalent_mutant_is_reported_not_run(tmp_path):
    key = next(iter(EQUIVALENT))
    path = key[0]
    index = next(i for i in range(mutants.site_count(path))
                 if mutants.mutant_of(path, i)[3] == key)
    result = mutants.run_one(("svm", path, index), str(tmp_path), timeout=1.0)
    assert result["verdict"] == "equivalent" and result["why"] == EQUIVALENT[key]
