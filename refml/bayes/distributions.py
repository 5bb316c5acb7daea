"""Known distributions of (X, Y): the setting where the Bayes rule can be computed.

[Wainwright-L2] (Wainwright, Lecture 2), section 2.3: when P is known, eta(x) = P(Y = +1 | X = x)
gives the Bayes rule g*(x) = +1 iff eta(x) >= 1/2 (eq. 2.4), and its risk R* is the
smallest risk of any rule (Theorem 2.1).  Each distribution here offers

    sample(n, random_state) -> (X, y)   n independent draws of (X, Y)
    posterior(x) -> list                [P(Y = classes[k] | X = x) for each k]
    bayes_risk()                        R* = E[1 - max_k P(Y = classes[k] | X)]

and the attributes ``classes`` (sorted) and ``n_features`` (the dimension d of X).

* ``FiniteDistribution``: a joint table over finitely many points and K classes.
* ``GaussianClasses``: Gaussian class-conditional densities (``gaussian``).
* ``PassFailExample``: [Wainwright-L2] section 2.3.2.
* ``make_separable``: a linearly separable data set with a known separator (eq. 2.25).
"""

import bisect
import math

from refml.bayes.decision import check_loss, decision_index, expected_losses
from refml.bayes.gaussian import GaussianClasses
from refml.bayes.known import (
    PROBABILITY_TOLERANCE,
    check_classes,
    check_dimension,
    check_sample_size,
)
from refml.core import linalg, validation
from refml.core.random import check_random_state

__all__ = ["FiniteDistribution", "GaussianClasses", "PassFailExample", "make_separable"]


class FiniteDistribution:
    """P(X = points[i], Y = classes[k]) = probabilities[i][k] on a finite support.

    Parameters
    ----------
    points : m distinct d-vectors x_1, ..., x_m (rows); in one dimension also m numbers.
    probabilities : m x K table p_ik >= 0 with sum_ik p_ik = 1 (to within 1e-9).
    classes : K distinct labels, default 0..K-1.  Given unsorted, they are stored sorted
        and the columns of ``probabilities`` permuted to match.

    Attributes: ``points``, ``probabilities``, ``classes``, ``n_features``, ``prior`` (the
    class marginal P(Y = classes[k]) = sum_i p_ik).

    Sampling draws an index j of the flattened table, in row-major order
    j = i K + k -> (points[i], classes[k]), by the running-sum inversion of
    ``Generator.choice`` (one uniform per draw), so that refml_fast draws the same samples.
    """

    _as_matrix = staticmethod(validation.as_matrix)  # refml_fast: numpy arrays

    def __init__(self, points, probabilities, classes=None):
        points = validation.flat_as_column(points)  # one-dimensional points may come flat
        points = self._as_matrix(points, name="points")
        table = self._as_matrix(probabilities, name="probabilities")
        if len(table) != len(points):
            raise ValueError(f"probabilities has {len(table)} rows but there are "
                             f"{len(points)} points: one row of class probabilities per point")
        classes, order = check_classes(classes, len(table[0]), "probabilities")
        self._check_probabilities(table)
        self._check_distinct(points)
        self._store(points, table, classes, order)

    def _check_probabilities(self, table):
        """p_ik >= 0 and sum_ik p_ik = 1 (summed row by row, left to right)."""
        total = 0.0
        for row in table:
            for p in row:
                if p < 0.0:
                    raise ValueError(negative_probability_message(p))
                total += p
        if abs(total - 1.0) > PROBABILITY_TOLERANCE:
            raise ValueError(probability_sum_message(total))

    def _check_distinct(self, points):
        """Refuse a repeated point; keep the index point -> i for ``posterior``."""
        self._index = {}
        for i, point in enumerate(points):
            j = self._index.get(tuple(point))
            if j is not None:
                raise ValueError(duplicate_point_message(i, point, j))
            self._index[tuple(point)] = i

    def _store(self, points, table, classes, order):
        self.points = points
        self.probabilities = [[row[k] for k in order] for row in table]
        self.classes = classes
        self.n_features = len(points[0])
        self.prior = self._class_marginal()
        self._flat = [p for row in self.probabilities for p in row]
        self._total = linalg.total(self._flat)  # as Generator.choice computes it
        self._cumulative = _running_sums(self._flat)

    def __repr__(self):
        return (f"FiniteDistribution(points={self.points!r}, "
                f"probabilities={self.probabilities!r}, classes={self.classes!r})")

    def _class_marginal(self):
        """P(Y = classes[k]) = sum_i p_ik, summed over i in order."""
        prior = [0.0] * len(self.classes)
        for row in self.probabilities:
            for k, p in enumerate(row):
                prior[k] += p
        return prior

    def posterior(self, x):
        """[P(Y = classes[k] | X = x)] = [p_ik / sum_j p_ij] for x = points[i].

        Where the conditional is undefined (x outside the support, or a point of mass 0),
        this returns the class prior P(Y = classes[k]): the Bayes rule then predicts the
        most probable class overall.
        """
        x = [float(v) for v in x]
        check_dimension(len(x), self.n_features)
        i = self._index.get(tuple(x))
        if i is None:
            return list(self.prior)
        row = self.probabilities[i]
        mass = 0.0
        for p in row:
            mass += p
        if mass == 0.0:
            return list(self.prior)
        return [p / mass for p in row]

    def _posterior_rows(self, X):
        return [self.posterior(x) for x in X]

    def bayes_risk(self, *, loss=None, return_error=False):
        """R* = sum_i (sum_k p_ik - max_k p_ik), exact: at x_i the Bayes rule errs with the
        mass of every class but the most probable one.  With a loss matrix L (L[k][j]: the
        loss of deciding classes[j] when the truth is classes[k]), R*_L = sum_i min_j
        sum_k p_ik L[k][j], the risk of ``BayesClassifier(distribution=self, loss=L)``."""
        if loss is not None:
            loss = check_loss(loss, len(self.classes))
            risk = 0.0
            for row in self.probabilities:
                risk += min(expected_losses(row, loss))
            return (risk, 0.0) if return_error else risk
        risk = 0.0
        for row in self.probabilities:
            mass = 0.0
            for p in row:
                mass += p
            risk += mass - max(row)
        return (risk, 0.0) if return_error else risk

    def _support_rows(self):
        """The support points as the package's classifiers take them."""
        return self.points

    def risk_of_predictions(self, predictions, loss=None):
        """P(Y != g(X)) for the rule g with g(points[i]) = predictions[i], exact:
        sum_i sum_{k : classes[k] != g(x_i)} p_ik (summed over i, then k, in order); with a
        loss matrix, sum_i sum_k p_ik L[k][g(x_i)]."""
        codes = self._codes_of(predictions)
        if loss is not None:
            loss = check_loss(loss, len(self.classes))
            risk = 0.0
            for i, row in enumerate(self.probabilities):
                j = decision_index(None if codes[i] < 0 else codes[i], predictions[i])
                for k, p in enumerate(row):
                    risk += p * loss[k][j]
            return risk
        risk = 0.0
        for i, row in enumerate(self.probabilities):
            for k, p in enumerate(row):
                if k != codes[i]:
                    risk += p
        return risk

    def _codes_of(self, predictions):
        """The class index of each prediction (-1 for a label that is not a class)."""
        predictions = list(predictions)
        if len(predictions) != len(self.points):
            raise ValueError(f"need one prediction per support point: got "
                             f"{len(predictions)} for {len(self.points)} points")
        code = {label: k for k, label in enumerate(self.classes)}
        return [code.get(label, -1) for label in predictions]

    def sample(self, n, random_state=None):
        """(X, y): n draws of (points[i], classes[k]) with probability p_ik."""
        check_sample_size(n)
        generator = check_random_state(random_state)
        n_classes = len(self.classes)
        X, y = [], []
        for _ in range(n):
            j = _invert_running_sum(self._flat, self._cumulative, self._total,
                                    generator.random())
            X.append(list(self.points[j // n_classes]))
            y.append(self.classes[j % n_classes])
        return X, y


def negative_probability_message(p):
    return f"probabilities must be non-negative, found {p!r}"


def probability_sum_message(total):
    return (f"probabilities must sum to 1 over the whole table (to within "
            f"{PROBABILITY_TOLERANCE}), they sum to {total!r}")


def duplicate_point_message(i, point, j):
    return (f"points must be distinct: points[{i}] = {list(point)!r} repeats points[{j}]; "
            "add their rows instead")


def _running_sums(probabilities):
    """c_j = p_0 + ... + p_j, added left to right."""
    running, sums = 0.0, []
    for p in probabilities:
        running += p
        sums.append(running)
    return sums


def _invert_running_sum(probabilities, cumulative, total, u):
    """``Generator.choice(probabilities)`` given its uniform u: the first j with
    u * total < c_j, or (when rounding leaves none) the last j with p_j > 0.
    Binary search over the running sums: O(log m) per draw instead of O(m)."""
    target = u * total
    j = bisect.bisect_right(cumulative, target)
    if j < len(cumulative):
        return j
    return max(j for j, p in enumerate(probabilities) if p > 0)


class PassFailExample:
    """[Wainwright-L2] section 2.3.2: X1, X2, X3 iid Exp(1); Y = +1 iff X1 + X2 + X3 <= 7
    (eq. 2.13); only X = (X1, X2) is observed (X3, "laziness", is not).  classes [-1, +1].

    eta (eq. 2.16).  Given X = x, Y = +1 iff X3 <= 7 - s with s = x1 + x2, and X3 is
    independent of X, so eta(x) = P(X3 <= 7 - s) = 1 - e^{-(7 - s)} for s <= 7 and 0
    otherwise: eta(x) = max(0, 1 - e^{-(7 - x1 - x2)}), as printed.

    Bayes rule (eq. 2.17).  eta(x) >= 1/2 iff e^{-(7 - s)} <= 1/2 iff s <= 7 - log 2,
    as printed.

    Bayes risk (derived here).  S = X1 + X2 ~ Gamma(2, 1), density s e^{-s}.  The rule
    "+1 iff s <= tau" (0 <= tau <= 7) errs with probability 1 - eta = e^{-(7 - s)} where
    s <= tau, with probability eta where tau < s <= 7, and never where s > 7 (eta = 0), so
        R(tau) = int_0^tau s e^{-s} e^{s - 7} ds + int_tau^7 s e^{-s} (1 - e^{s - 7}) ds
               = e^{-7} tau^2 / 2 + [(tau + 1) e^{-tau} - 8 e^{-7}] - e^{-7} (49 - tau^2) / 2
               = (tau + 1) e^{-tau} + e^{-7} (tau^2 - 32.5).
    At tau* = 7 - log 2, e^{-tau*} = 2 e^{-7} and
        R* = e^{-7} (tau*^2 + 2 tau* - 30.5) = e^{-7} ((8 - log 2)^2 - 31.5) ~ 0.019961.
    (tests/test_distributions.py checks this against a two-dimensional quadrature of
    min(eta, 1 - eta) e^{-x1 - x2}.)
    """

    threshold = 7.0                      # Y = +1 iff X1 + X2 + X3 <= 7
    bayes_threshold = 7.0 - math.log(2)  # g*(x) = +1 iff x1 + x2 <= 7 - log 2
    classes = [-1, 1]
    n_features = 2

    def __repr__(self):
        return "PassFailExample()"

    def eta(self, x):
        """eta(x) = P(Y = +1 | X = x) = max(0, 1 - e^{-(7 - x1 - x2)}) (eq. 2.16).

        Computed as max(0, -expm1(s - 7)) with s = x1 + x2, which equals 1 - e^{-(7 - s)}
        without cancellation near s = 7.
        """
        check_dimension(len(x), 2)
        s = float(x[0]) + float(x[1])
        return max(0.0, -math.expm1(s - self.threshold))

    def posterior(self, x):
        """[P(Y = -1 | X = x), P(Y = +1 | X = x)] = [1 - eta(x), eta(x)]."""
        eta = self.eta(x)
        return [1.0 - eta, eta]

    def _posterior_rows(self, X):
        return [self.posterior(x) for x in X]

    def sample(self, n, random_state=None):
        """(X, y): per draw, three Exp(1) variables x1, x2, x3 (in that order) from the
        generator; X = (x1, x2), y = +1 iff (x1 + x2) + x3 <= 7."""
        check_sample_size(n)
        generator = check_random_state(random_state)
        X, y = [], []
        for _ in range(n):
            x1, x2, x3 = generator.exponential(), generator.exponential(), generator.exponential()
            X.append([x1, x2])
            y.append(1 if x1 + x2 + x3 <= self.threshold else -1)
        return X, y

    def threshold_risk(self, tau):
        """R(g_tau), exact, for the rule g_tau(x) = +1 iff x1 + x2 <= tau (see the class
        docstring; tau < 0 predicts -1 everywhere, tau > 7 adds the mass of 7 < s <= tau)."""
        tau = float(tau)
        e7 = math.exp(-7.0)
        if tau <= 0.0:  # always -1: R = P(Y = +1) = P(Gamma(3, 1) <= 7)
            return 1.0 - 32.5 * e7
        if tau <= 7.0:
            return (tau + 1.0) * math.exp(-tau) + e7 * (tau * tau - 32.5)
        # the rule also says +1 on 7 < s <= tau, where eta = 0: add int_7^tau s e^{-s} ds
        return 24.5 * e7 + 8.0 * e7 - (tau + 1.0) * math.exp(-tau)

    def bayes_risk(self, *, return_error=False):
        """R* = e^{-7} ((8 - log 2)^2 - 31.5), exact (derivation in the class docstring)."""
        risk = math.exp(-7.0) * ((8.0 - math.log(2.0)) ** 2 - 31.5)
        return (risk, 0.0) if return_error else risk


def make_separable(n, d, margin, random_state=None, return_separator=False):
    """A linearly separable data set (X, y), y in {-1, +1}, with a known separator.

    theta* is a uniformly random unit vector of R^d (normalised normal draws).  Each label
    is +-1 with probability 1/2 (both classes appear: if all labels agree, one random label
    is flipped).  Each point is x_i = z_i - (theta*'z_i) theta* + y_i (margin + e_i) theta*
    with z_i standard normal and e_i ~ Exp(1), except one random point with e_i = 0.  So
    y_i theta*'x_i = margin + e_i, and the margin of theta* in [Wainwright-L2] eq. (2.25),
    delta = min_i y_i <theta*, x_i> / ||theta*||, equals ``margin`` (up to rounding).
    The separator passes through the origin (no intercept), as in [Wainwright-L2].

    With ``return_separator=True`` returns (X, y, theta*).
    """
    validation.check_scalar(n, "n", "int", low=2)
    validation.check_scalar(d, "d", "int", low=1)
    validation.check_scalar(margin, "margin", "real", low=0.0, low_open=True)
    if margin == math.inf:
        raise ValueError("Invalid parameter margin=inf: must be finite")
    generator = check_random_state(random_state)
    theta = [0.0] * d
    while linalg.norm(theta) == 0.0:
        theta = [generator.normal() for _ in range(d)]
    theta = linalg.scale(1.0 / linalg.norm(theta), theta)
    y = [1 if generator.random() < 0.5 else -1 for _ in range(n)]
    if len(set(y)) == 1:
        flipped = generator.randbelow(n)
        y[flipped] = -y[flipped]
    closest = generator.randbelow(n)
    X = []
    for i in range(n):
        z = [generator.normal() for _ in range(d)]
        beyond = 0.0 if i == closest else generator.exponential()
        along = y[i] * (margin + beyond) - linalg.dot(theta, z)
        X.append(linalg.axpy(along, theta, z))
    return (X, y, theta) if return_separator else (X, y)

