"""Projected stochastic gradient descent with Polyak-Ruppert averaging ([MATH412], section 5).

[MATH412], Algorithm 1, for a convex f on a closed convex set D and a stochastic gradient
G with E[G(theta)] = grad f(theta):

    1: initialise theta_0
    2: for k = 1 to n - 1:
    3:     theta_k = Pi_D(theta_{k-1} - gamma_k G_k(theta_{k-1}))   (Euclidean projection)
    5: return theta_bar_n = (1/n) sum_{k=0}^{n-1} theta_k           (Polyak-Ruppert averaging)

with steps gamma_k = C k^(-alpha), 0 < alpha < 1 (here ``step`` = C, ``power`` = alpha).
``n_steps`` is the lecture's n: n - 1 updates, n iterates averaged (theta_0 included).
D is the ball {||theta||_2 <= radius}, whose projection is theta * min(1, radius/||theta||)
(``radius=None``: D = R^p, no projection).  theta_0 is projected too (unchanged if in D).

Theorem (SGD convergence rate, [MATH412]): for f convex, differentiable and B-Lipschitz
on D, a stochastic gradient with ||G(theta)||_2 <= B almost surely, and gamma_k =
(D/B) / sqrt(k), i.e. ``step=radius/B, power=0.5``,

    E[f(theta_bar_n)] - f(theta_*) <= 3 B D / sqrt(n)   for every theta_* in D.

The slide prints the assumption as ||G(theta)||_2^2 <= B.  That is a slip for
||G(theta)||_2 <= B (the standard form, with B the Lipschitz constant, and the only one under
which the bound is scale-consistent).  A counter-example that keeps every other hypothesis:
f(theta) = B theta on D = [-1, 1] with B = 0.01 (B-Lipschitz), G = B +- (sqrt(B) - B) with
probability 1/2 each (unbiased, ||G||^2 <= B), and the theorem's steps D/(B sqrt(k)): the
mean excess is about 0.0091 / 0.0077 / 0.0050 at n = 100 / 1,000 / 10,000, against bounds
of 0.0030 / 0.00095 / 0.0003.  tests/test_sgd.py checks the n = 100 case.
"""

import math
from collections import namedtuple

from refml.core import linalg, validation
from refml.core.random import check_random_state

SGDResult = namedtuple("SGDResult", ["theta", "theta_average", "theta_last"])
SGDResult.__doc__ = """The result of ``projected_sgd``.

theta : the answer: ``theta_average`` if ``average`` else ``theta_last``.
theta_average : theta_bar_n = (1/n) sum_{k=0}^{n-1} theta_k (None when ``average=False``).
theta_last : theta_{n-1}, the last iterate.
"""


def projected_sgd(stochastic_gradient, theta0, n_steps, *, step=1.0, power=0.5, radius=None,
                  average=True, random_state=None):
    """[MATH412], Algorithm 1: projected SGD, returning the averaged and the last iterate.

    Parameters
    ----------
    stochastic_gradient : callable (theta, rng) -> sequence of floats
        One draw of G(theta), an unbiased estimate of grad f(theta); it draws its own
        randomness from ``rng`` (a ``refml.core.random.Generator``: ``rng.randbelow(n)``,
        ``rng.random()``, ``rng.normal()``), so that a seed reproduces the run.
    theta0 : sequence of floats, the starting point.
    n_steps : int >= 1, the lecture's n (n - 1 updates, n iterates averaged).
    step, power : gamma_k = step * k ** (-power); ``step > 0``, ``0 < power <= 1``.
        The theorem's choice is ``step = radius / B``, ``power = 0.5``.
    radius : float > 0 or None, the D of the ball D = {||theta|| <= radius}.
    average : bool, whether ``theta`` is the Polyak-Ruppert average (True) or the last iterate.
    random_state : int, None or Generator, the seed of ``rng``.

    Returns
    -------
    SGDResult(theta, theta_average, theta_last), vectors as lists.

    Examples
    --------
    Minimise f(theta) = E|theta - U| with U uniform on {-1, 0, 3} (the median, 0):

    >>> def G(theta, rng):
    ...     u = [-1.0, 0.0, 3.0][rng.randbelow(3)]
    ...     return [1.0 if theta[0] > u else -1.0 if theta[0] < u else 0.0]
    >>> result = projected_sgd(G, [2.0], 2000, step=3.0 / 1.0, radius=3.0, random_state=0)
    >>> abs(result.theta[0]) < 0.2
    True
    """
    _check_arguments(n_steps, step, power, radius, average)
    rng = check_random_state(random_state)
    theta = _project([float(value) for value in theta0], radius)
    total = list(theta)                       # sum_{k=0}^{K} theta_k, updated as k grows
    theta, total, _ = run_steps(stochastic_gradient, theta, total, 0, n_steps - 1,
                                step, power, radius, rng)
    if not average:
        return SGDResult(theta, None, theta)
    theta_average = [value / n_steps for value in total]
    return SGDResult(theta_average, theta_average, theta)


def run_steps(stochastic_gradient, theta, total, k, n_updates, step, power, radius, rng):
    """Lines 2-4 of Algorithm 1 for k + 1, ..., k + n_updates: (theta, total, k) after them.

    ``total`` accumulates the iterates for the average.  LogisticRegression(solver="sgd")
    calls this once per epoch, carrying (theta, total, k) over.
    """
    for _ in range(n_updates):
        k += 1
        gamma = step_size(step, power, k)
        G = stochastic_gradient(theta, rng)
        theta = _project([t - gamma * g for t, g in zip(theta, G)], radius)
        total = [s + t for s, t in zip(total, theta)]
    return theta, total, k


def step_size(step, power, k):
    """gamma_k = C k^(-alpha)."""
    return step * float(k) ** -power


def _project(theta, radius):
    """Pi_D(theta) for the ball of radius D: theta * D / ||theta|| when ||theta|| > D."""
    if radius is None:
        return theta
    length = linalg.norm(theta)
    if length <= radius:
        return theta
    return [value * (radius / length) for value in theta]


def _check_arguments(n_steps, step, power, radius, average):
    validation.check_scalar(n_steps, "n_steps", "int", low=1)
    validation.check_scalar(step, "step", "real", low=0.0, low_open=True)
    if step == math.inf:
        raise ValueError("Invalid parameter step=inf: must be finite")
    validation.check_scalar(power, "power", "real", low=0.0, high=1.0, low_open=True)
    if radius is not None:
        validation.check_scalar(radius, "radius", "real", low=0.0, low_open=True)
    validation.check_bool(average, "average")
