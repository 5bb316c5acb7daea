"""scikit-learn's own estimator checks (``parametrize_with_checks``) over every classifier and
density estimator of refml_fast, and of refml.

The only checks allowed to fail are the ones an estimator declares in
``_expected_failed_checks`` (docs/design.md lists each with its reason).  The Bayes rule of a
known distribution is not a learner and opts out of the common checks altogether, like
scikit-learn's FrozenEstimator; ``test_bayes_rule_meets_the_api_checks_that_apply`` runs
the checks that do apply to it.
"""

import importlib
import warnings

import pytest

from tests.estimators import REGISTRY

pytestmark = [pytest.mark.fast, pytest.mark.sklearn]


def _estimators(lib_name):
    lib = importlib.import_module(lib_name)
    estimators = [factory(lib) for factory, _ in REGISTRY.values()]
    estimators += [lib.KernelDensity(), lib.Histogram()]
    return estimators


def _expected(estimator):
    return dict(estimator._expected_failed_checks)


def _parametrize(lib_name):
    from sklearn.utils.estimator_checks import parametrize_with_checks

    return parametrize_with_checks(_estimators(lib_name), expected_failed_checks=_expected)


@_parametrize("refml_fast")
def test_refml_fast_passes_scikit_learns_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(estimator)


@_parametrize("refml")
def test_refml_passes_scikit_learns_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(estimator)


def test_at_most_three_declared_failures_each_and_every_one_documented():
    from pathlib import Path

    design = (Path(__file__).resolve().parents[1] / "docs" / "design.md").read_text()
    for lib_name in ("refml", "refml_fast"):
        for estimator in _estimators(lib_name):
            declared = estimator._expected_failed_checks
            assert len(declared) <= 3, type(estimator).__name__
            for check, reason in declared.items():
                assert reason and check in design, (type(estimator).__name__, check)


@pytest.mark.parametrize("lib_name", ["refml", "refml_fast"])
def test_tags_tell_the_truth(lib_name):
    from sklearn.utils import get_tags

    lib = importlib.import_module(lib_name)
    for name, (factory, binary) in REGISTRY.items():
        tags = get_tags(factory(lib))
        assert tags.estimator_type == "classifier", name
        assert tags.classifier_tags.multi_class is (not binary), name
        assert tags.target_tags.required and not tags.input_tags.sparse, name
        assert tags.requires_fit is (name != "BayesClassifier"), name
    for density in (lib.KernelDensity(), lib.Histogram()):
        tags = get_tags(density)
        assert tags.estimator_type == "density_estimator"
        assert not tags.target_tags.required and tags.classifier_tags is None


@pytest.mark.parametrize("lib_name", ["refml", "refml_fast"])
def test_bayes_rule_meets_the_api_checks_that_apply(lib_name):
    import pickle

    from sklearn.base import clone
    from sklearn.utils.estimator_checks import (
        check_estimator_repr,
        check_get_params_invariance,
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_set_params,
    )

    model = REGISTRY["BayesClassifier"][0](importlib.import_module(lib_name))
    for check in (check_estimator_repr, check_get_params_invariance, check_set_params,
                  check_no_attributes_set_in_init, check_parameters_default_constructible):
        check("BayesClassifier", model)
    twin = clone(model)   # scikit-learn deep-copies the distribution
    assert repr(twin.distribution) == repr(model.distribution) and twin is not model
    X = [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    expected = model.predict(X)
    assert list(pickle.loads(pickle.dumps(model)).predict(X)) == list(expected)
