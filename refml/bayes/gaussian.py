"""Gaussian class-conditional distributions, and the helpers every known distribution uses.

``GaussianClasses`` is the model of [IML-L5] ("MAP / quadratic (Gaussian) classifier")
and [Yan] (LDA, QDA): Y = k with prior pi_k, and X | Y = k ~ N(mu_k, Sigma_k).
Its public home is ``refml.bayes.distributions``; it lives in this file to keep modules short.
"""

import math

from refml.bayes.decision import bayes_decision, check_loss, decision_index
from refml.bayes.known import (
    check_classes,
    check_dimension,
    check_probability_vector,
    check_sample_size,
    monte_carlo_bayes_risk,
    monte_carlo_risk,
)
from refml.core import linalg, validation
from refml.core.random import check_random_state


def normal_cdf(z):
    """Phi(z) = P(N(0, 1) <= z) = erfc(-z / sqrt 2) / 2 (accurate in both tails)."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def normal_interval(a, b):
    """P(a < Z < b) for Z ~ N(0, 1), a <= b, written to keep its precision in the tails."""
    if a >= 0.0:  # both in the right tail: Q(a) - Q(b), Q(z) = Phi(-z)
        return normal_cdf(-a) - normal_cdf(-b)
    return normal_cdf(b) - normal_cdf(a)



# ----------------------------------------------------------------------------------------


class GaussianClasses:
    """Y = classes[k] with probability pi_k; X | Y = classes[k] ~ N(mu_k, Sigma_k).

    Parameters
    ----------
    priors : K positive probabilities pi_k summing to 1.
    means : K vectors mu_k of dimension d.
    covariances : K symmetric positive definite d x d matrices Sigma_k.
    classes : K distinct labels (default 0..K-1); given unsorted, they are stored sorted
        with priors, means and covariances permuted to match.

    Notes
    -----
    The posterior is P(Y = k | X = x) = pi_k N(x; mu_k, Sigma_k) / sum_j pi_j N(x; mu_j,
    Sigma_j) (Bayes' rule, [Yan] "Bayes optimal classifier"), computed from the
    log scores  log pi_k - (1/2) log det Sigma_k - (1/2) (x - mu_k)' Sigma_k^{-1} (x - mu_k)
    with the log-sum-exp shift, so that it neither overflows nor divides 0 by 0.
    """

    def __init__(self, priors, means, covariances, classes=None):
        priors = check_probability_vector(priors, "priors")
        if min(priors) <= 0.0:
            raise ValueError("priors must be positive: drop the classes of prior 0")
        means = validation.as_matrix(means, name="means")
        n_classes, n_features = len(means), len(means[0])
        if len(priors) != n_classes or len(covariances) != n_classes:
            raise ValueError(f"priors, means and covariances must have one entry per class: "
                             f"got {len(priors)}, {n_classes}, {len(covariances)}")
        covariances = [_check_covariance(S, n_features, k) for k, S in enumerate(covariances)]
        self.classes, order = check_classes(classes, n_classes, "priors")
        self.priors = [priors[k] for k in order]
        self.means = [means[k] for k in order]
        self.covariances = [covariances[k] for k in order]
        self.n_features = n_features
        self._cholesky = [linalg.cholesky(S) for S in self.covariances]
        self._logdet = [linalg.cholesky_logdet(L) for L in self._cholesky]

    def __repr__(self):
        return (f"GaussianClasses(priors={self.priors!r}, means={self.means!r}, "
                f"covariances={self.covariances!r}, classes={self.classes!r})")

    def log_scores(self, x):
        """log pi_k - (1/2) log det Sigma_k - (1/2) (x - mu_k)' Sigma_k^{-1} (x - mu_k)."""
        scores = []
        for k in range(len(self.classes)):
            # (x - mu)' Sigma^{-1} (x - mu) = ||L^{-1} (x - mu)||^2 with Sigma = L L'
            whitened = linalg.solve_lower(self._cholesky[k], linalg.subtract(x, self.means[k]))
            mahalanobis = linalg.dot(whitened, whitened)
            scores.append(math.log(self.priors[k]) - 0.5 * self._logdet[k] - 0.5 * mahalanobis)
        return scores

    def posterior(self, x):
        """[P(Y = classes[k] | X = x) for each k], by log-sum-exp."""
        x = [float(v) for v in x]
        check_dimension(len(x), self.n_features)
        scores = self.log_scores(x)
        if not all(math.isfinite(score) for score in scores):
            scores = self._far_log_score_differences(x)
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = linalg.total(weights)
        return [w / total for w in weights]

    def _far_log_score_differences(self, x):
        """log score_k - log score_r for an x so far from the means that the squared
        Mahalanobis distances q_k overflow (|x| near 1e155 and beyond).

        Only differences matter for the posterior.  With w_k = L_k^{-1}(x - mu_k),
        q_k - q_r = (w_k - w_r)'(w_k + w_r); when Sigma_k = Sigma_r, w_k - w_r =
        L^{-1}(mu_r - mu_k) is computed directly (the rounded w_k would cancel to noise).
        Products are taken over c = max |w| so that nothing overflows before the last
        multiplication; r is the class with the smallest q (the first on ties).
        """
        whitened = [linalg.solve_lower(self._cholesky[k], linalg.subtract(x, self.means[k]))
                    for k in range(len(self.classes))]
        c = max(abs(v) for w in whitened for v in w)
        if not math.isfinite(c):
            raise ValueError(f"x = {x!r} is too far from the class means for float64: its "
                             "whitened distance overflows; rescale X")
        scaled = [[v / c for v in w] for w in whitened]
        r = linalg.argmax([-linalg.dot(u, u) for u in scaled])
        differences = []
        for k in range(len(self.classes)):
            if k == r:
                differences.append(0.0)
                continue
            if self.covariances[k] == self.covariances[r]:
                gap = linalg.solve_lower(self._cholesky[k],
                                         linalg.subtract(self.means[r], self.means[k]))
            else:
                gap = linalg.subtract(whitened[k], whitened[r])
            q_gap = c * linalg.dot(gap, linalg.add(scaled[k], scaled[r]))
            differences.append(math.log(self.priors[k]) - math.log(self.priors[r])
                               - 0.5 * (self._logdet[k] - self._logdet[r]) - 0.5 * q_gap)
        return differences

    def _posterior_rows(self, X):
        return [self.posterior(x) for x in X]

    def sample(self, n, random_state=None):
        """(X, y): n draws; each draws k by ``Generator.choice(priors)``, then d standard
        normals z, and returns x = mu_k + L_k z (Sigma_k = L_k L_k')."""
        check_sample_size(n)
        generator = check_random_state(random_state)
        X, y = [], []
        for _ in range(n):
            k = generator.choice(self.priors)
            z = [generator.normal() for _ in range(self.n_features)]
            X.append(linalg.add(self.means[k], linalg.matvec(self._cholesky[k], z)))
            y.append(self.classes[k])
        return X, y

    def bayes_risk(self, *, loss=None, return_error=False, n_samples=20_000, random_state=0,
                   confidence=0.999):
        """R* = E[1 - max_k eta_k(X)], the risk of the Bayes rule.

        With a loss matrix L (L[k][j]: deciding classes[j] when the truth is classes[k]):
        the risk of ``BayesClassifier(distribution=self, loss=L)`` by ``risk`` (exact for
        two classes with equal covariances, Monte Carlo otherwise).

        * Two classes with equal covariances: the closed form below (error 0).
        * d = 1, any K: exact, by cutting the line where two weighted densities cross (at
          most K(K-1) roots of quadratics); between cuts one class wins, and the risk is
          the sum over pieces of the other classes' mass pi_k P_k(piece), in Phi (error 0,
          up to rounding).
        * Otherwise Monte Carlo with ``n_samples`` draws and Hoeffding's bound at
          ``confidence`` (``return_error=True`` gives ``(value, bound)``).

        Closed form (two classes, Sigma_0 = Sigma_1 = Sigma, Delta^2 = (mu_1 - mu_0)'
        Sigma^{-1} (mu_1 - mu_0)): the log-likelihood ratio L(X) is N(+-Delta^2/2, Delta^2)
        under Y = 1 / Y = 0, the Bayes rule says class 1 iff L >= c = log(pi_0 / pi_1), so
            R* = pi_0 Phi(-Delta/2 - c/Delta) + pi_1 Phi(-Delta/2 + c/Delta),
        which is Phi(-Delta/2) for equal priors; for Delta = 0 it is min(pi_0, pi_1).
        """
        if loss is not None:
            value, error = self._bayes_risk_under(check_loss(loss, len(self.classes)),
                                                  n_samples, random_state, confidence)
            return (value, error) if return_error else value
        if len(self.classes) == 2 and self.covariances[0] == self.covariances[1]:
            value, error = self._equal_covariance_risk(), 0.0
        elif self.n_features == 1:
            value, error = self._one_dimensional_risk(), 0.0
        else:
            value, error = monte_carlo_bayes_risk(self, n_samples, random_state, confidence)
        return (value, error) if return_error else value

    def _bayes_risk_under(self, loss, n_samples, random_state, confidence):
        """(R*_L, error) under a loss matrix: exact where the rule is linear, else Monte
        Carlo over the rule's own decisions."""
        line = bayes_line(self, loss)
        if line is not None:
            return linear_rule_risk(*line, self, loss), 0.0

        def decide(X):
            return [self.classes[bayes_decision(p, loss)] for p in self._posterior_rows(X)]

        return monte_carlo_risk(decide, self, n_samples, random_state, confidence, loss)

    def _equal_covariance_risk(self):
        difference = linalg.subtract(self.means[1], self.means[0])
        whitened = linalg.solve_lower(self._cholesky[0], difference)
        delta = math.sqrt(linalg.dot(whitened, whitened))
        pi0, pi1 = self.priors
        if delta == 0.0:
            return min(pi0, pi1)
        c = math.log(pi0 / pi1)
        return pi0 * normal_cdf(-delta / 2 - c / delta) + pi1 * normal_cdf(-delta / 2 + c / delta)

    def _one_dimensional_risk(self):
        sds = [math.sqrt(S[0][0]) for S in self.covariances]
        mus = [m[0] for m in self.means]
        cuts = sorted(set(_crossings(self.priors, mus, sds)))
        edges = [-math.inf] + cuts + [math.inf]
        risk = 0.0
        for a, b in zip(edges[:-1], edges[1:]):
            inside = _point_inside(a, b)
            scores = self.log_scores([inside])
            winner = scores.index(max(scores))
            for k in range(len(self.classes)):
                if k != winner:
                    risk += self.priors[k] * normal_interval((a - mus[k]) / sds[k],
                                                             (b - mus[k]) / sds[k])
        return risk


def _check_covariance(S, d, k):
    S = validation.as_matrix(S, name=f"covariances[{k}]")
    if len(S) != d or len(S[0]) != d:
        raise ValueError(f"covariances[{k}] must be {d} x {d}, got {len(S)} x {len(S[0])}")
    for i in range(d):
        for j in range(i):
            if abs(S[i][j] - S[j][i]) > 1e-12 * max(1.0, abs(S[i][j])):
                raise ValueError(f"covariances[{k}] must be symmetric")
    try:
        linalg.cholesky(S)
    except linalg.SingularMatrixError:
        raise ValueError(f"covariances[{k}] is not positive definite (singular covariance): "
                         "add a small multiple of the identity") from None
    return S


def _crossings(priors, mus, sds):
    """Every x where two weighted normal densities pi_j N(x; mu_j, s_j^2) are equal.

    log pi_j N_j - log pi_k N_k = A x^2 + B x + C with A = 1/(2 s_k^2) - 1/(2 s_j^2),
    B = mu_j/s_j^2 - mu_k/s_k^2, C = log(pi_j s_k / (pi_k s_j)) - mu_j^2/(2 s_j^2)
    + mu_k^2/(2 s_k^2).
    """
    roots = []
    for j in range(len(priors)):
        for k in range(j + 1, len(priors)):
            vj, vk = sds[j] ** 2, sds[k] ** 2
            A = 1.0 / (2.0 * vk) - 1.0 / (2.0 * vj)
            B = mus[j] / vj - mus[k] / vk
            C = (math.log(priors[j] * sds[k] / (priors[k] * sds[j]))
                 - mus[j] ** 2 / (2.0 * vj) + mus[k] ** 2 / (2.0 * vk))
            roots.extend(_quadratic_roots(A, B, C))
    return roots


def _quadratic_roots(A, B, C):
    """Real roots of A x^2 + B x + C (the stable form q = -(B + sign(B) sqrt(D)) / 2)."""
    if A == 0.0:
        return [-C / B] if B != 0.0 else []
    discriminant = B * B - 4.0 * A * C
    if discriminant < 0.0:
        return []
    q = -0.5 * (B + math.copysign(math.sqrt(discriminant), B))
    if q == 0.0:
        return [0.0]
    return [q / A, C / q]


def _point_inside(a, b):
    """A point of the open interval (a, b), finite.  Beside an infinite end, one unit
    beyond the finite one, or the next float where a unit is lost to rounding (|a| from
    2^53 on, where a + 1 is a itself)."""
    if a == -math.inf and b == math.inf:
        return 0.0
    if a == -math.inf:
        return min(b - 1.0, math.nextafter(b, -math.inf))
    if b == math.inf:
        return max(a + 1.0, math.nextafter(a, math.inf))
    return 0.5 * (a + b)


def bayes_line(distribution, loss):
    """(w, b, [classes_0, classes_1]) of the Bayes rule under ``loss`` (None: 0-1) of a
    binary GaussianClasses with equal covariances, or None (then the rule is not linear,
    or the loss makes it constant).  The rule is w'x + b >= 0 with w = Sigma^{-1} (mu_1 -
    mu_0) and b the log-odds offset minus log((L01 - L00) / (L10 - L11))."""
    if not (len(distribution.classes) == 2
            and distribution.covariances[0] == distribution.covariances[1]):
        return None
    L = loss or [[0.0, 1.0], [1.0, 0.0]]
    a, c = L[0][1] - L[0][0], L[1][0] - L[1][1]
    if not (a > 0.0 and c > 0.0):
        return None
    factor = linalg.cholesky(distribution.covariances[0])
    mu_0, mu_1 = distribution.means
    w = linalg.cholesky_solve(factor, linalg.subtract(mu_1, mu_0))
    b = (-0.5 * linalg.dot(linalg.add(mu_1, mu_0), w)
         + math.log(distribution.priors[1]) - math.log(distribution.priors[0]) - math.log(a / c))
    return w, b, list(distribution.classes)


def linear_rule_risk(w, b, labels, distribution, loss=None):
    """The risk of "labels[1] iff w'x + b > 0" (the boundary has probability 0)."""
    negative, positive = labels
    code = {label: k for k, label in enumerate(distribution.classes)}
    total = 0.0
    for k, label in enumerate(distribution.classes):
        mean = linalg.dot(w, distribution.means[k]) + b
        sigma_w = [linalg.dot(row, w) for row in distribution.covariances[k]]
        sd = math.sqrt(linalg.dot(w, sigma_w))
        # P(w'X + b > 0 | Y = k) = Phi(mean / sd), P(w'X + b < 0 | Y = k) = Phi(-mean / sd)
        if loss is not None:
            j1 = decision_index(code.get(positive), positive)
            j0 = decision_index(code.get(negative), negative)
            expected = (normal_cdf(mean / sd) * loss[k][j1]
                        + normal_cdf(-mean / sd) * loss[k][j0])
            total += distribution.priors[k] * expected
            continue
        if label == positive:
            wrong = normal_cdf(-mean / sd)
        elif label == negative:
            wrong = normal_cdf(mean / sd)
        else:
            wrong = 1.0
        total += distribution.priors[k] * wrong
    return total
