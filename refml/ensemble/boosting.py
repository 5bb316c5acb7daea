"""AdaBoost ([Yan], Yan: "How to remove bias: Boosting", "AdaBoost", "AdaBoost:
insights"), exactly as printed there, for Y in {-1, +1}:

    Initialization: w_i = 1/n.  For m = 1, ..., M:
      fit f_m on the training data with weights w_1, ..., w_n;
      err_m = sum_i w_i 1{Y_i != f_m(X_i)} / sum_i w_i;
      alpha_m = log((1 - err_m) / err_m);
      w_i <- w_i exp(alpha_m 1{Y_i != f_m(X_i)}).
    Output: f(x) = sign(sum_m alpha_m f_m(x)).

Checked numerically (conformance/t16_adaboost.py): with this alpha_m, twice Freund and
Schapire's (1/2) log((1 - err)/err), the output sign and the normalised weights are the
same as theirs (a miss gains the factor (1 - err)/err relative to a hit in both), so their
bound  training error <= prod_m 2 sqrt(err_m (1 - err_m))  holds while every err_m < 1/2.

(The print names the weights omega_1, ..., omega_n in the fitting step and w_i everywhere
else: the same weights.)

Where the code goes beyond the print (each documented in the class docstring):
- weights renormalised to mean 1 after every round (the print never renormalises);
- the policies for err_m = 0 and err_m >= 1/2, which the print leaves undefined;
- K > 2 classes by SAMME (Zhu, Zou, Rosset and Hastie, "Multi-class AdaBoost", 2009):
  alpha_m = log((1 - err_m)/err_m) + log(K - 1), stopping when err_m >= 1 - 1/K, and
  f(x) = argmax_k sum_m alpha_m 1{f_m(x) = k}; for K = 2 this is the lecture's algorithm.
"""

import math

from refml.core import caller, linalg
from refml.core.linalg import argmax, sigmoid, softmax
from refml.core.random import check_random_state, validate_random_state
from refml.ensemble.committee import Committee, accepts_sample_weight

# ----------------------------------------------------------------------------------------
# 1. One round's arithmetic: the weighted error, the learner's weight, the new weights.


def misses(predicted, codes):
    """1{Y_i != f_m(X_i)} for each row."""
    return [p != c for p, c in zip(predicted, codes)]


def weighted_error(w, missed):
    """err_m = sum_i w_i 1{Y_i != f_m(X_i)} / sum_i w_i (both sums in index order)."""
    total = 0.0
    missed_total = 0.0
    for w_i, miss in zip(w, missed):
        total += w_i
        if miss:
            missed_total += w_i
    return missed_total / total


def learner_weight(err, n_classes, earlier_alphas):
    """(alpha_m, e^{alpha_m}): alpha_m = log((1 - err_m)/err_m) + log(K - 1) (the lecture's
    for K = 2); (None, None) to stop when err_m >= 1 - 1/K."""
    if err >= 1.0 - 1.0 / n_classes:
        return None, None
    factor = ((1.0 - err) / err) * (n_classes - 1) if err > 0.0 else math.inf
    if factor == math.inf:  # err_m = 0: a finite weight above all earlier ones together
        return 1.0 + linalg.total(earlier_alphas), math.inf
    return math.log((1.0 - err) / err) + math.log(n_classes - 1), factor


def reweighted(w, missed, factor):
    """w_i <- w_i exp(alpha_m 1{Y_i != f_m(X_i)}) (factor = e^{alpha_m})."""
    return [w_i * factor if miss else w_i for w_i, miss in zip(w, missed)]


def mean_one(weights):
    """w_i <- (w_i / sum_j w_j) n (sums in index order); unit weights stay 1.0."""
    total = 0.0
    for w in weights:
        total += w
    n = len(weights)
    if total == n and all(w == 1.0 for w in weights):
        return list(weights)
    return [(w / total) * n for w in weights]


# ----------------------------------------------------------------------------------------
# 2. The estimator: the boosting loop.


class AdaBoostClassifier(Committee):
    """AdaBoost with decision stumps by default ([Yan]), SAMME for K > 2 classes.

    Parameters
    ----------
    estimator : estimator whose ``fit`` takes ``sample_weight``, or None
        The weak learner, cloned every round.  None: a decision stump,
        ``DecisionTreeClassifier(max_depth=1)`` of the same package.
    n_estimators : int >= 1
        M, the largest number of rounds.
    random_state : int, numpy RandomState or Generator, or None
        Seeds the members' own ``random_state`` (one 64-bit draw per round, in order), for
        weak learners that are random; the default stump is not.

    Attributes
    ----------
    estimators_ : the fitted f_m, m = 1..M' (M' <= M when boosting stopped early).
    estimator_weights_ : alpha_m of each member.
    estimator_errors_ : err_m of each member (weighted error on its own weights).
    estimator_ : the unfitted template; classes_, n_classes_, n_features_in_.

    Notes
    -----
    Weights.  fit's ``sample_weight`` replaces the uniform start 1/n (None: uniform); its
    scale does not matter.  The weights are kept at mean 1 (sum n) instead of sum 1: err_m,
    alpha_m and the relative weights are unchanged by a common scale, and weights near 1
    keep the members' impurities far from underflow.
    After each update they are renormalised, w_i <- (w_i / sum_j w_j) n: the misses then hold
    total weight n/2 and the hits n/2 (K = 2), so no weight overflows and a weight shrinks
    by at most a factor K per round: from unit weights, none can underflow within
    1000 / log2(K) rounds.  e^{alpha_m} is formed as the quotient (K - 1)(1 - err_m)/err_m it
    equals.  Rows of weight 0 take no part (the tree drops them).

    Stopping.  err_m >= 1 - 1/K (1/2 for two classes): f_m is no better than chance; it is
    discarded and boosting stops (if this happens in round 1 the ensemble is empty,
    ``decision_function`` is 0 and ``predict`` gives classes_[0]; a warning says so).
    err_m = 0 (or so small that (1 - err_m)/err_m overflows): f_m is perfect on the weighted
    training data; it is kept with the finite weight alpha_m = 1 + sum_{j<m} alpha_j, larger
    than all earlier weights together, so the ensemble follows f_m and its weighted training
    error is 0, as prod_m 2 sqrt(err_m (1 - err_m)) = 0 demands; boosting stops.

    Output.  K = 2: ``decision_function`` is sum_m alpha_m f_m(x) with f_m in {-1, +1}
    (classes_[0] -> -1), and ``predict`` its sign, 0 going to classes_[0] (docs/design.md
    section 4).
    K > 2: ``decision_function`` gives the K scores sum_m alpha_m 1{f_m(x) = k}, and
    ``predict`` their argmax, ties to the first class.  ``predict_proba``: SAMME's class
    probabilities (see the method).

    Invariances (conformance item 20): the features' common scale and uniform weights of any
    scale change no prediction.  The rows' order and every row twice can: the weighted
    errors and the renormalisation sum in row order, the weights take few distinct values
    after a round, and stumps whose errors tie exactly are then told apart by rounding.
    The classes' names and the features' order can where a stump's vote or its choice
    ties (the first class, the first feature).

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]]
    >>> model = AdaBoostClassifier(n_estimators=3).fit(X, [0, 0, 1, 1, 0, 0])
    >>> model.predict(X)
    [0, 0, 1, 1, 0, 0]
    """

    def __init__(self, estimator=None, *, n_estimators=50, random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.random_state = random_state

    def _default_estimator(self):
        return self._tree_class(max_depth=1)

    def _check_params(self, X):
        super()._check_params(X)
        template = self._template(X)
        if not accepts_sample_weight(template):
            raise ValueError(f"Invalid parameter estimator={self.estimator!r}: AdaBoost "
                             "re-weights the data, so the estimator's fit must take "
                             "sample_weight")
        validate_random_state(self.random_state)

    # --- fitting ----------------------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Boost on X, y, starting from ``sample_weight`` (None: uniform); warns if the first
        weak learner is no better than chance (the ensemble is then empty)."""
        super().fit(X, y, sample_weight)
        if len(self.estimators_) == 0:
            caller.warn("AdaBoostClassifier: the first weak learner has weighted error "
                          ">= 1 - 1/K (no better than chance); the ensemble is empty and "
                          "predicts classes_[0]", UserWarning)
        return self

    def _fit(self, X, codes, weights):
        self.n_classes_ = len(self.classes_)
        template = self._template(X)
        self.estimator_ = template
        rng = check_random_state(self.random_state)
        w = self._mean_one(self._relative_weights(weights))
        X = self._members_matrix(X, weights)
        members, alphas, errors = [], [], []
        for m in range(self.n_estimators):
            member = self._fit_member(self._new_member(template, rng.next_u64()), X, codes, w)
            missed = self._misses(self._member_codes(member, X), codes)
            err = self._weighted_error(w, missed)
            alpha, factor = self._learner_weight(err, alphas)
            if alpha is None:  # no better than chance: discard f_m and stop
                break
            members.append(member)
            alphas.append(alpha)
            errors.append(err)
            if factor == math.inf or m + 1 == self.n_estimators:
                break  # a perfect learner ends boosting
            w = self._reweighted(w, missed, factor)
        self.estimators_ = members
        self.estimator_weights_ = self._as_output(alphas)
        self.estimator_errors_ = self._as_output(errors)

    def _learner_weight(self, err, earlier_alphas):
        return learner_weight(err, self.n_classes_, earlier_alphas)

    # --- the weight arithmetic (refml_fast: numpy) ---
    @staticmethod
    def _mean_one(weights):
        return mean_one(weights)

    @staticmethod
    def _misses(predicted, codes):
        return misses(predicted, codes)

    @staticmethod
    def _weighted_error(w, missed):
        return weighted_error(w, missed)

    def _reweighted(self, w, missed, factor):
        """w_i <- w_i exp(alpha_m 1{miss_i}), then renormalised to mean 1."""
        return self._mean_one(reweighted(w, missed, factor))

    # --- prediction -------------------------------------------------------------------------
    def decision_function(self, X):
        """K = 2: sum_m alpha_m f_m(x), f_m in {-1, +1}; K > 2: the K class scores
        sum_m alpha_m 1{f_m(x) = k} (rows in classes_ order)."""
        X = self._validate_predict(X)
        return self._as_output(self._scores(X))

    def predict_proba(self, X):
        """Class probabilities from SAMME's scores (beyond the lectures, which stop at
        sign(f); Zhu, Zou, Rosset and Hastie 2009, section 2, and scikit-learn's SAMME):
        with f_k(x) = sum_m alpha_m 1{f_m(x) = k} / sum_m alpha_m,

            P(k | x) = exp(f_k(x) / (K - 1)) / sum_l exp(f_l(x) / (K - 1)).

        For K = 2 this is (sigma(-z), sigma(z)) with z = f_1 - f_0, the decision function
        over sum_m alpha_m.  The argmax is ``predict``'s class (ties apart: predict
        sends 0 to classes_[0], the argmax too).  An empty ensemble (boosting stopped in
        round 1) gives 1/K everywhere."""
        X = self._validate_predict(X)
        return self._as_output(self._samme_probabilities(self._scores(X)))

    def _samme_probabilities(self, scores):
        total = 0.0
        for alpha in self.estimator_weights_:
            total += alpha
        total = total if total > 0.0 else 1.0          # no member: all scores are 0
        if self.n_classes_ == 2:
            return [[sigmoid(-z), sigmoid(z)] for z in (score / total for score in scores)]
        spread = float(self.n_classes_ - 1)
        return [softmax([(score / total) / spread for score in row]) for row in scores]

    def _scores(self, X):
        n_rows = len(X)
        if self.n_classes_ == 2:
            scores = [0.0] * n_rows
            for alpha, member in zip(self.estimator_weights_, self.estimators_):
                for i, k in enumerate(self._member_codes(member, X)):
                    scores[i] += alpha * (1.0 if k == 1 else -1.0)
            return scores
        scores = [[0.0] * self.n_classes_ for _ in range(n_rows)]
        for alpha, member in zip(self.estimator_weights_, self.estimators_):
            for i, k in enumerate(self._member_codes(member, X)):
                scores[i][k] += alpha
        return scores

    def _predict_codes(self, X):
        """sign(sum_m alpha_m f_m(x)) (0 -> classes_[0]); K > 2: the argmax of the scores."""
        scores = self._scores(X)
        if self.n_classes_ == 2:
            return [1 if s > 0.0 else 0 for s in scores]
        return [argmax(row) for row in scores]
