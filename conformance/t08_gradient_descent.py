"""Item 8: gradient descent with step <= 1/L is a descent method on the logistic loss.

The smoothness constant, derived.  For the sum form f(w) = -l(w) = sum_i log(1 + e^{-y_i w'x_i})
([MATH412], {-1,+1} labels), the Hessian is sum_i sigma(z_i) sigma(-z_i) x_i x_i' with
sigma(z) sigma(-z) <= 1/4 (at z = 0), so

    grad^2 f(w) <= (1/4) X'X   and   L = lambda_max(X'X) / 4 = ||X||_2^2 / 4

bounds the curvature everywhere.  The code uses L_bound = min(trace, largest absolute row sum
of X'X) / 4 >= L (``linalg.largest_eigenvalue_bound``).  With eta <= 1/L the descent lemma
gives f(w - eta g) <= f(w) - eta (1 - L eta / 2) ||g||^2 <= f(w) - (eta/2) ||g||^2, the
quantitative form of [Yan]'s "for smooth L, GD is a descent algorithm".

- sum form: 15 GD steps with eta = 1/L_bound (the largest step allowed) from a random start
  (w = 0 half of the time, where the curvature bound is attained, and d = 1 often, where
  L_bound = L exactly) must each satisfy f(w+) <= f(w) - (eta/2) ||g||^2, to within
  1e-12 (1 + |f(w)|) for rounding;
- the estimator: LogisticRegression(solver="gd") with its default step (1/L for the mean
  objective, with Boehning's 1/2 in place of 1/4 when K > 2; refml/linear/logistic_solvers.py) on
  random binary and multinomial data, with and without ridge penalty: its ``loss_curve_``
  never increases (to within 4 eps |L| rounding);
- the rates ([Yan], gradient descent): with step 1/L, after t steps from theta_0 = 0,
  L(theta_t) - L* <= L ||theta_0 - theta*||^2 / (2t) (convex, smooth), and with a ridge
  alpha > 0 and no intercept (so that L is mu-strongly convex, kappa = mu / L; mu = alpha
  for two classes and alpha / K for K > 2, the smallest eigenvalue of the penalty on all K
  classes' slopes, refml/linear/logistic_solvers.py),
  L(theta_t) - L* <= (1 - kappa)^t (L(theta_0) - L*).  theta* and L* come from Newton at
  its defaults (which polishes to the MLE's rounding); a ridge alpha in {0.01, 0.1, 1}
  keeps theta* finite.  Both are deterministic: they fail with probability 0.
"""

import math
import warnings

from ._harness import Theorem

SOURCE = "[MATH412] sec. 3; [Yan] 'A brief introduction to gradient descent'"


def make_sum_form(rng):
    n = 1 + rng.randbelow(20)
    d = 1 if rng.random() < 0.4 else 1 + rng.randbelow(4)
    scale = [0.1, 1.0, 5.0][rng.randbelow(3)]
    X = [[scale * rng.normal() for _ in range(d)] for _ in range(n)]
    y = [1 if rng.random() < 0.5 else -1 for _ in range(n)]
    at_zero = rng.random() < 0.5
    w0 = [0.0 if at_zero else 3.0 * rng.normal() / scale for _ in range(d)]
    return {"X": X, "y": y, "w0": w0}


def smoothness_bound(X):
    """L_bound = lambda_bound(X'X) / 4 >= ||X||_2^2 / 4."""
    from refml.core.linalg import gram, largest_eigenvalue_bound

    return largest_eigenvalue_bound(gram(X)) / 4.0


def check_sum_form(instance):
    from refml import log_likelihood, log_likelihood_gradient

    X, y, w = instance["X"], instance["y"], list(instance["w0"])
    L = smoothness_bound(X)
    if L == 0.0:        # all x_i = 0: f is constant
        return 0.0
    eta = 1.0 / L
    worst = math.inf
    for _ in range(15):
        f = -log_likelihood(w, X, y, "plus_minus")
        g = [-v for v in log_likelihood_gradient(w, X, y, "plus_minus")]
        w = [a - eta * b for a, b in zip(w, g)]
        f_next = -log_likelihood(w, X, y, "plus_minus")
        decrease = 0.5 * eta * sum(v * v for v in g)
        worst = min(worst, f - decrease - f_next + 1e-12 * (1.0 + abs(f)))
    return worst


def make_estimator_problem(rng):
    K = 2 if rng.random() < 0.5 else 3 + rng.randbelow(2)
    n = K + rng.randbelow(25)
    d = 1 + rng.randbelow(4)
    scale = [0.3, 1.0, 4.0][rng.randbelow(3)]
    X = [[scale * rng.normal() for _ in range(d)] for _ in range(n)]
    codes = list(range(K)) + [rng.randbelow(K) for _ in range(n - K)]
    return {"X": X, "y": codes, "alpha": [0.0, 0.0, 0.1, 1.0][rng.randbelow(4)],
            "fit_intercept": rng.random() < 0.7}


def check_estimator(instance):
    from refml import LogisticRegression

    model = LogisticRegression(solver="gd", max_iter=25, tol=0.0, alpha=instance["alpha"],
                               fit_intercept=instance["fit_intercept"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(instance["X"], instance["y"])
    curve = model.loss_curve_
    return min(a - b + 4.0 * 2.0 ** -52 * abs(a) for a, b in zip(curve, curve[1:]))


def make_rate_problem(rng):
    instance = make_estimator_problem(rng)
    instance["alpha"] = [0.01, 0.1, 1.0][rng.randbelow(3)]
    instance["fit_intercept"] = rng.random() < 0.5
    return instance


def check_rates(instance):
    """min over t of the two rate bounds minus the excess loss (rounding: 1e-12 (1 + L))."""
    from refml import LogisticRegression

    params = {"alpha": instance["alpha"], "fit_intercept": instance["fit_intercept"]}
    gd = LogisticRegression(solver="gd", max_iter=40, tol=0.0, **params)
    newton = LogisticRegression(solver="newton", **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gd.fit(instance["X"], instance["y"])
        newton.fit(instance["X"], instance["y"])
    best = newton.loss_curve_[-1]
    theta_star = [v for row in newton.coef_ for v in row] + list(newton.intercept_)
    distance2 = sum(v * v for v in theta_star)                    # ||theta_0 - theta*||^2
    L = 1.0 / gd.learning_rate_
    n_classes = len(set(instance["y"]))
    kappa = instance["alpha"] / (n_classes if n_classes > 2 else 1) / L
    slack = math.inf
    for t, loss in enumerate(gd.loss_curve_):
        excess = loss - best
        rounding = 1e-12 * (1.0 + abs(loss))
        if t > 0:
            slack = min(slack, L * distance2 / (2 * t) - excess + rounding)
        if not instance["fit_intercept"]:
            slack = min(slack, (1.0 - kappa) ** t * (gd.loss_curve_[0] - best) - excess
                        + rounding)
    return slack


THEOREMS = [
    Theorem(8, "GD, step 1/L (L = ||X||^2/4 bound): f(w+) <= f(w) - ||g||^2/(2L)", SOURCE,
            make_sum_form, check_sum_form, size=lambda i: len(i["X"]) * len(i["w0"])),
    Theorem(8, "GD: LogisticRegression(solver='gd') default step never increases the loss",
            SOURCE, make_estimator_problem, check_estimator,
            size=lambda i: len(i["X"]) * len(i["X"][0]), quick=40),
    Theorem(8, "GD rates: L(theta_t) - L* <= L||theta*||^2/(2t), (1 - kappa)^t if strongly "
            "convex", "[Yan] gradient descent (convergence rates)", make_rate_problem,
            check_rates, size=lambda i: len(i["X"]) * len(i["X"][0]), quick=40),
]
