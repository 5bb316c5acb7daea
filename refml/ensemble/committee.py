"""What the ensembles of [Yan] share: a committee of members cloned from one template
estimator, each fitted on weighted training data, each casting one vote per point.

``BaggingClassifier``, ``RandomForestClassifier`` (``bagging``) and ``AdaBoostClassifier``
(``boosting``) subclass ``Committee``.  A member is fitted on weighted data: bagging's
bootstrap counts (times the sample weights), or AdaBoost's weights w_i.  A tree of the
ensemble's own package (``refml.tree.DecisionTreeClassifier`` in refml, its subclass in
refml_fast) is fitted through its own ``_fit`` on the ensemble's already validated data:
the same tree as ``fit(X, y, sample_weight)`` builds, without validating X once per
member.  Every member then keeps the ensemble's ``classes_`` (a class whose rows all have
weight 0 stays there), so its votes are label codes of the ensemble directly.  Members of
the other package or of other libraries are fitted and asked through ``fit``/``predict``.
"""

import inspect

from refml.core import validation
from refml.core.base import Classifier, WeightedClassifier, clone
from refml.tree.classifier import DecisionTreeClassifier


class SingleClassVoter:
    """The member fitted on a bootstrap sample that holds a single class: it votes for it.

    Only for base estimators without ``sample_weight``, which are fitted on the drawn rows
    themselves and would refuse one class (every estimator here needs two).
    """

    def __init__(self, label):
        self.classes_ = [label]

    def __repr__(self):
        return f"SingleClassVoter({self.classes_[0]!r})"

    def predict(self, X):
        return [self.classes_[0]] * len(X)


class Committee(WeightedClassifier):
    """Plumbing shared by the ensembles: ``fit`` with sample weights, members, votes."""

    _tree_class = DecisionTreeClassifier  # the default member; refml_fast: its own tree
    _state_classes = (SingleClassVoter, )  # what a model file may hold (core.model_files)

    def _check_params(self, X):
        validation.check_scalar(self.n_estimators, "n_estimators", "int", low=1)
        self._template(X)

    # --- members ---------------------------------------------------------------------------
    def _template(self, X):
        """The estimator every member clones: ``estimator`` or the default tree, checked."""
        if self.estimator is None:
            return self._default_estimator()
        estimator = self.estimator
        if not all(callable(getattr(estimator, name, None))
                   for name in ("fit", "predict", "get_params", "set_params")):
            raise ValueError(f"Invalid parameter estimator={estimator!r}: must be an estimator "
                             "with fit, predict, get_params and set_params")
        template = clone(estimator)
        if isinstance(template, DecisionTreeClassifier) and self._native(template):
            template._check_params(X)  # bad tree hyper-parameters fail before any member
        return template

    def _default_estimator(self):
        return self._tree_class()

    def _members_matrix(self, X, weights):
        """The matrix the members are fitted on: X itself (a forest with ``max_bins``: the
        bin codes of X, its edges kept in ``_member_edges`` for the members)."""
        return X

    @staticmethod
    def _new_member(template, seed):
        """A fresh clone of the template; its random_state (if it has one) is ``seed``."""
        member = clone(template)
        if "random_state" in member.get_params(deep=False):
            member.set_params(random_state=seed)
        return member

    def _native(self, member):
        """True for a member of this package's kind: a refml estimator whose data travel
        as the ensemble's do (lists in refml, arrays in refml_fast), so that it can take the
        ensemble's validated X directly.  Any other member (a refml_fast estimator in a
        refml ensemble, a foreign estimator) goes through its public fit and predict."""
        return (isinstance(member, Classifier)
                and type(member)._as_matrix is type(self)._as_matrix)

    def _fit_member(self, member, X, codes, weights):
        """Fit ``member`` on X with labels ``codes`` and sample weights ``weights``."""
        if isinstance(member, DecisionTreeClassifier) and self._native(member):
            member._check_params(X)
            member.classes_ = list(self.classes_)
            member.n_features_in_ = self.n_features_in_
            member._given_edges = getattr(self, "_member_edges", None)  # X holds bin codes
            member._fit(X, codes, weights)
        else:
            member.fit(X, self._labels_from_codes(codes), sample_weight=weights)
        return member

    def _member_codes(self, member, X):
        """The class code (index in ``classes_``) the member predicts for each row of X.

        Passed through ``_as_codes``: a member that is not native (a refml member inside a
        refml_fast ensemble) gives a list, which refml_fast's vote arithmetic needs as an
        array.
        """
        if self._native(member) and list(member.classes_) == list(self.classes_):
            return self._as_codes(member._predict_codes(X))
        index = {label: k for k, label in enumerate(self.classes_)}
        return self._as_codes([index[label] for label in member.predict(X)])


def accepts_sample_weight(estimator):
    """True if ``estimator.fit`` takes a ``sample_weight`` argument."""
    try:
        return "sample_weight" in inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):
        return False
