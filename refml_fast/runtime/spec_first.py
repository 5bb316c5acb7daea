"""The specification answers first: while a chapter's kernels are not compiled, small work
is done by refml itself, whose answers are refml_fast's (beyond the lectures).

A refml_fast estimator's first fit in a process with an empty kernel cache waits for Numba:
1-23 s on the 2-core machine of docs/performance.md, while refml fits the same 1,000 x 10
rows in 0.1-3.4 s.  refml and refml_fast give identical predictions (conformance proves it
on random instances: the same floats in the same order, the same random stream, the same
tie rules), so while a chapter's kernels are neither in the cache nor compiled in this
process, refml_fast fits a refml *twin* of the estimator on the same rows, takes its learned
state through the model-file representation (``refml.core.model_files``: lists -> arrays),
and lets the twin answer ``predict``, ``predict_proba``, ``predict_log_proba`` and
``decision_function`` while it is the estimator's current fit.  Any other method, and every
call the rules below refuse, runs the kernels on that state (compiling them then, with the
notice of ``cache.announce_compilation``).

When: the first use only.  In a process, refml fits at most the first fit of each setting
(an estimator class with its hyper-parameters) and answers at most the first call of each
answering method of that setting; a second fit or a second call of a method compiles the
kernels.  So a first script (fit, predict, predict_proba; a score on another set is a
second predict and compiles) waits for refml instead of the compiler, while a loop over
fits, or a benchmark timing repeated calls, runs the kernels from its second round on.
Within that, refml answers only while its estimated seconds (``spec_costs``), added up over
the chapter in this process, stay within what compiling the chapter costs
(``spec_costs.COMPILE_SECONDS``): refml is never asked for more than the compile would have
taken (the ski-rental bound: at most about twice the compile is ever waited).  A fit of
passes that stop by their own rule (the perceptron's) gets ``max_iter`` cut to the passes
that fit in what is left (``learned_within``): stopped by its rule it is the full fit,
stopped by the cut the kernels fit.  The decision
uses estimates and counts only, no clock, so a script takes the same path on every run.  A
fit inside another refml_fast fit (an ensemble's members) never uses it: the outer fit
decided; nor does a ``warm_start`` fit, or a setting with a hyper-parameter that is not a
plain value (a numpy generator).  ``REFML_SPEC_FIRST=0`` turns it off (conformance, the
tests and the benchmarks of the kernels do; ``python -m refml_fast compile`` too).
"""

import functools
import os
import sys
import threading
import warnings
import weakref

import numpy as np

from refml.core import interop
from refml_fast.runtime import cache, spec_costs

ANSWERS = ("predict", "predict_proba", "predict_log_proba", "decision_function")
PLAIN = (type(None), bool, int, float, str)    # hyper-parameters a twin takes as they are
_TWINS = weakref.WeakKeyDictionary()    # estimator -> the refml twin of its current fit
_SPENT = {}                             # chapter -> estimated seconds the specification took
_COMPILED = set()                       # chapters whose kernels ran (or loaded) here
_CACHED = {}                            # chapter -> its kernels were in the cache at first look
_TOLD = set()
_USED = set()                           # (setting, "fit" or a method) refml has done
_FITTING = [0]                          # refml_fast fits under way, in every thread
_LOCK = threading.Lock()


def enabled():
    return os.environ.get("REFML_SPEC_FIRST", "1") != "0"


def chapter_of(estimator):
    return cache.chapter_of(type(estimator))


def kernels_ready(chapter):
    """The chapter's kernels ran in this process or were in the cache at the first look."""
    if chapter in _COMPILED:
        return True
    if chapter not in _CACHED:
        _CACHED[chapter] = cache.CACHE and cache.chapter_cached(chapter)
    return _CACHED[chapter]


def kernels_ran(estimator):
    """The estimator's chapter compiled (or loaded) its kernels: no more twins there."""
    _COMPILED.add(chapter_of(estimator))


def setting(estimator):
    """The class and the hyper-parameters, those that are not plain values by their type
    (a random generator, a member template)."""
    return type(estimator).__name__, tuple(
        (name, value if isinstance(value, PLAIN) else type(value).__name__)
        for name, value in sorted(estimator.get_params(deep=False).items()))


def affordable(estimator, use, seconds):
    """The first ``use`` ("fit" or a method's name) of the estimator's setting, and the rent
    paid within the price of buying (see the module's text); counted when it is."""
    chapter, first = chapter_of(estimator), (setting(estimator), use)
    spent = _SPENT.get(chapter, 0.0) + seconds
    if first in _USED or spent > spec_costs.COMPILE_SECONDS.get(chapter, 0.0):
        return False
    _USED.add(first)
    _SPENT[chapter] = spent
    return True


def twin_class(estimator):
    """The refml class a refml_fast estimator's class extends (None for another one)."""
    for klass in type(estimator).__mro__:
        if klass.__module__.split(".")[0] == "refml" and klass.__name__ == \
                type(estimator).__name__:
            return klass
    return None


def make_twin(estimator):
    """An unfitted refml estimator with the same hyper-parameters (members' templates made
    refml's too); None when a parameter is neither a plain value nor a refml_fast estimator
    (a numpy generator as ``random_state``: the kernels take it)."""
    klass = twin_class(estimator)
    if klass is None:
        return None
    params = {}
    for name, value in estimator.get_params(deep=False).items():
        if hasattr(value, "get_params"):
            params[name] = make_twin(value)
            if params[name] is None:
                return None
        elif isinstance(value, PLAIN):
            params[name] = value
        else:
            return None
    return klass(**params)


def as_lists(value):
    return value.tolist() if isinstance(value, np.ndarray) else value


def fit(estimator, X, codes, classes, n_features, fit_args):
    """Fit ``estimator`` through its refml twin when the specification should answer
    (module's text); True when it did, False when the kernels must fit."""
    chapter = chapter_of(estimator)
    if (not enabled() or _FITTING[0] > 1 or kernels_ready(chapter)
            or getattr(estimator, "warm_start", False)):
        return False
    twin = make_twin(estimator)
    if twin is None:
        return False
    estimator._check_params(X)      # the formulas read valid hyper-parameters only
    n, d = X.shape
    seconds = spec_costs.fit_seconds(estimator, n, d, len(classes))
    passes = capped_passes(estimator, chapter, n, d, len(classes))
    if passes is not None:
        seconds = passes * spec_costs.pass_seconds(estimator, n, d, len(classes))
    if seconds is None or not affordable(estimator, "fit", seconds):
        return False
    args = (X.tolist(), codes.tolist(), as_lists(classes), n_features,
            *[as_lists(arg) for arg in fit_args])
    if passes is None or passes == estimator.max_iter:
        tell(estimator, chapter)
        twin._learn(*args)
    elif not learned_within(estimator, twin, chapter, passes, args):
        return False
    if passes is not None:          # the passes the twin's rule spared are given back
        _SPENT[chapter] -= (passes - twin.n_iter_) * seconds / passes
    from refml.core import model_files

    loaded = model_files.converted(twin, "refml_fast")
    params = set(estimator.get_params(deep=False))
    estimator._forget()
    estimator.__dict__.update({name: value for name, value in vars(loaded).items()
                               if name not in params})
    estimator.classes_ = classes
    _TWINS[estimator] = (twin, X.shape[0])
    return True


def capped_passes(estimator, chapter, n, d, n_classes):
    """For a fit of passes (``spec_costs.pass_seconds``): the most passes of refml that the
    chapter's budget has room for, at most ``max_iter``; None for another fit."""
    per_pass = spec_costs.pass_seconds(estimator, n, d, n_classes)
    if per_pass is None:
        return None
    room = spec_costs.COMPILE_SECONDS.get(chapter, 0.0) - _SPENT.get(chapter, 0.0)
    return max(1, min(estimator.max_iter, int(room / per_pass)))


def learned_within(estimator, twin, chapter, passes, args):
    """Fit the twin with ``max_iter=passes``, fewer than the estimator's: its fit is the
    estimator's when its own rule (no mistake in a pass, or ``tol``'s patience) stopped it
    before the cap, as nothing else in the passes reads ``max_iter``.  True then, its
    warnings given; False when the cap stopped it (the kernels fit, the time spent counted,
    its warnings dropped)."""
    wanted = twin.max_iter
    twin.set_params(max_iter=passes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        twin._learn(*args)
    twin.set_params(max_iter=wanted)
    if twin.n_iter_ >= passes:
        return False
    tell(estimator, chapter)
    for warning in caught:
        warnings.warn_explicit(warning.message, warning.category, warning.filename,
                               warning.lineno)
    return True


def forget(estimator):
    _TWINS.pop(estimator, None)


class fitting:
    """``with fitting(estimator):`` around a refml_fast fit: fits inside it (an ensemble's
    members, on any thread) are the outer fit's business, and a new fit drops the twin of
    the last."""

    def __init__(self, estimator):
        self.estimator = estimator

    def __enter__(self):
        forget(self.estimator)
        with _LOCK:
            _FITTING[0] += 1

    def __exit__(self, *exc):
        with _LOCK:
            _FITTING[0] -= 1


def answer(estimator, name, X):
    """The twin's answer of method ``name`` at X in refml_fast's form, or None when the
    kernels must answer."""
    twin, n_train = _TWINS.get(estimator, (None, 0))
    if twin is None or not enabled():
        return None
    chapter = chapter_of(estimator)
    if kernels_ready(chapter):
        forget(estimator)
        return None
    try:
        rows = len(X)       # before validating, which the kernels would do again
    except TypeError:
        return None         # not rows at all: the kernels' validation says what is wrong
    seconds = spec_costs.answer_seconds(estimator, rows, estimator.n_features_in_, n_train)
    if seconds is None or not affordable(estimator, name, seconds):
        return None
    values = getattr(twin, name)(estimator._validate_predict(X).tolist())
    if name != "predict":
        return np.asarray(values, dtype=np.float64)
    position = {label: k for k, label in enumerate(interop.plain_labels(twin.classes_))}
    return estimator._labels_from_codes([position[label] for label in values])


def tiered(cls):
    """Class decorator: the answering methods of ``cls`` (``ANSWERS``) ask the twin first;
    ``partial_fit`` drops it (the state moves on)."""
    for name in ANSWERS:
        method = getattr(cls, name, None)
        if method is not None and not hasattr(method, "twin_first"):   # inherited: done
            setattr(cls, name, answered_first(method, name))
    method = getattr(cls, "partial_fit", None)
    if method is not None and not hasattr(method, "twin_first"):
        setattr(cls, "partial_fit", dropping_twin(method))
    return cls


def answered_first(method, name):
    @functools.wraps(method)
    def answered(self, X):
        values = answer(self, name, X)
        if values is not None:
            return values
        result = method(self, X)
        kernels_ran(self)
        forget(self)
        return result
    answered.twin_first = True
    return answered


def dropping_twin(method):
    @functools.wraps(method)
    def partial_fit(self, *args, **kwargs):
        forget(self)
        return method(self, *args, **kwargs)
    partial_fit.twin_first = True
    return partial_fit


def tell(estimator, chapter):
    """Once per chapter and process, on stderr: why this call did not compile."""
    if chapter in _TOLD or cache.QUIET[0]:
        return
    _TOLD.add(chapter)
    print(f"refml_fast: {type(estimator).__name__} answers with refml's specification (the "
          f"same answers) while the {chapter} kernels are not compiled; a second fit or call, "
          "or larger work, compiles them.  `python -m refml_fast compile` compiles every "
          "estimator ahead; REFML_SPEC_FIRST=0 compiles on the first call.", file=sys.stderr)
