"""The objective of LogisticRegression, Newton's method and L-BFGS (see refml/linear/logistic.py).

Notation of [Yan] ("Logistic regression", "Maximum likelihood estimation"): classes
0..K-1 (codes of ``classes_``), class 0 the reference; for k = 1..K-1 a vector
beta_k = [w_k, b_k] acting on the augmented x~ = [x, 1] ([Yan]: X = R^d x {1}; no 1
without ``fit_intercept``).  theta is the flat list [beta_1, ..., beta_{K-1}] of length
(K-1) p, p = d + fit_intercept.  Scores z_k = beta_k'x~, z_0 = 0, and

    P(Y = k | x) = exp(z_k) / (1 + sum_{k'=1}^{K-1} exp(z_k')),   P(Y = 0 | x) = 1 / (same).

For K = 2 this is P(Y = 1 | x) = sigma(z_1), [MATH412]'s model.  ([Yan] numbers
the classes 0..K with K free vectors; here K counts all classes, so K - 1 are free.  Its
first slide prints P(Y = 0 | x) with exp(beta_{k'}'x + beta_{0,k}) inside the sum over k':
an index slip for beta_{0,k'}, as in the line above it and on the next slide.)

The objective is the mean negative log-likelihood of [Yan] plus an optional ridge
penalty on the slopes w_k:

    L(theta) = (1/n) sum_i [log(1 + sum_k exp(z_ik)) - z_{i,y_i}] + (alpha/2) R(w),
    grad_k L = (1/n) sum_i (P(Y = k | x_i) - 1{y_i = k}) x~_i + alpha [w_k - m, 0],
    H_{kl}   = (1/n) sum_i P_ik (1{k = l} - P_il) x~_i x~_i'
               + alpha (1{k = l} - s) diag(1, ..., 1, 0),

with m = s sum_{k=1}^{K-1} w_k and R(w) = sum_{k=1}^{K-1} ||w_k - m||^2 + ||m||^2, where
s = 1/K for K > 2 classes and s = 0 for two (m = 0, R = ||w_1||^2: the plain ridge).

Beyond the lectures ([Yan] has no penalty; [MATH412]'s ridge is binary): why this R.  With
K > 2 a ridge on the K - 1 free vectors alone leaves the reference class unpenalised, so
renaming the classes (another class becomes classes_[0]) changes the fitted probabilities.
The symmetric model has a vector u_k for every class k = 0..K-1 and the penalty
sum_{k=0}^{K-1} ||u_k||^2 (scikit-learn's multinomial objective).  The likelihood depends
on the differences w_k = u_k - u_0 only; for fixed w, u_0 = -m (m as above: the mean of
u_k - u_0 over all K classes, class 0's being 0) minimises the penalty, whose minimum is
sum_{k=0}^{K-1} ||w_k - m||^2 with w_0 = 0: R(w).  So minimising L over the K - 1 free
vectors minimises the symmetric objective, and the classes' probabilities do not depend on
which class is classes_[0].  Differentiating R/2: w_k - m (the m-terms cancel, as
sum_k (w_k - m) + (-m) = 0 over all K); its Hessian is (I - s 1 1') on each slope
coordinate, positive definite (eigenvalues 1 and 1/K).  For two classes the plain ridge is
already symmetric (renaming maps w_1 to -w_1) and is scikit-learn's binary penalty, so it
stays.  ``slope_mean`` computes m, ``penalty`` R.

Every sum over features runs left to right.  Sums over samples (L, grad L and the Hessian)
are added in the blocked order of ``refml.core.summation``: blocks of samples, each summed
in order from 0.0, then the blocks' totals in order.

Solvers (each takes the objective, ``objective(theta) -> (L, grad L)``, as a function: the
estimator binds its data, and refml_fast its kernels):

- ``newton``: damped Newton (IRLS): delta solves H delta = -grad by Cholesky (directions
  with a vanishing pivot, from collinear features, are left out), then backtracking from
  t = 1 until L(theta + t delta) <= L(theta) + 1e-4 t grad'delta (or, once the change
  of L is below its rounding, until max |grad| decreases).  Once max |grad| <= tol, one or
  two more unit steps (``_polish``) give the maximum-likelihood estimate to rounding.
- ``lbfgs``: limited-memory BFGS (beyond the lectures; Nocedal & Wright, Numerical
  Optimization, 2nd ed., Algorithms 7.4 and 7.5): the direction -H_k grad, H_k built from
  the last m = 10 pairs s = theta' - theta, y = grad' - grad by the two-loop recursion,
  then the same backtracking as Newton.  H_0 is scaled by P = I + 1 1' over the classes,
  which makes it L-BFGS in the symmetric (one vector per class) parametrisation
  (``class_coupling``).  Each iteration costs one or two evaluations of L
  and its gradient, O(n K d), instead of Newton's O(n K^2 d^2) Hessian: the solver for
  many classes or many features.  A pair with y's <= 0 (only rounding can make one: L is
  convex) is skipped, which keeps H_k positive definite.
- the lecture's own loops, in refml/linear/logistic.py: ``gradient_descent``, theta <- theta -
  eta grad L(theta) ([Yan]) with a fixed eta, and ``sgd``, [Yan]'s SGD with uniform
  sampling, steps eta_k = C k^(-power_t) and the Polyak-Ruppert average of [MATH412],
  Algorithm 1 (one epoch, ``sgd_epoch`` here, is n steps of ``refml.linear.sgd.run_steps``).

Each stops when max_j |grad_j L| <= tol (at the averaged iterate for sgd) or at ``max_iter``.
"""

import math

from refml.core import linalg, summation
from refml.linear import sgd as sgd_module

NEWTON_PIVOT_TOLERANCE = 1e-10
ARMIJO_FRACTION = 1e-4
MAX_HALVINGS = 60
POLISH_STEPS = 3
POLISH_SIZE = 1e-6
EPSILON = 2.0 ** -52
# ----------------------------------------------------------------------------------------
# The model.


def augmented(x, fit_intercept):
    """x~ = [x, 1] (or x itself without intercept)."""
    return list(x) + [1.0] if fit_intercept else list(x)


def scores(theta, x_tilde, n_free):
    """[z_1, ..., z_{K-1}], z_k = beta_k'x~ (n_free = K - 1 blocks of length p)."""
    p = len(x_tilde)
    return [linalg.dot(theta[k * p:(k + 1) * p], x_tilde) for k in range(n_free)]


def class_probabilities(z):
    """([P(Y=0|x), ..., P(Y=K-1|x)], log(1 + sum_k exp(z_k))) from z = [z_1, ..., z_{K-1}].

    Computed without overflow: with m = max(0, z_1, ..., z_{K-1}),
    1 + sum exp(z_k) = e^m (e^{-m} + sum_k e^{z_k - m}), every exponent <= 0.
    """
    m = 0.0
    for value in z:
        m = max(m, value)
    exponentials = [math.exp(-m)] + [math.exp(value - m) for value in z]
    total = 0.0
    for value in exponentials:
        total += value
    return [value / total for value in exponentials], m + math.log(total)


def objective(X, codes, theta, n_classes, fit_intercept, alpha):
    """(L(theta), grad L(theta)) as in the module docstring, the sums over samples added in
    ``summation``'s blocked order (``block_sums`` sums one block)."""
    n_free = n_classes - 1
    p = len(theta) // n_free
    data_loss = 0.0
    gradient = [0.0] * len(theta)
    for start, stop in summation.blocks(len(X), summation.objective_block(n_classes)):
        block_loss, block_gradient = block_sums(X[start:stop], codes[start:stop], theta,
                                                n_free, fit_intercept)
        data_loss += block_loss
        gradient = [total + term for total, term in zip(gradient, block_gradient)]
    n = len(X)
    d = len(X[0])
    mean = slope_mean(theta, n_classes, p, d)
    for k in range(n_free):
        for j in range(p):
            ridge = alpha * (theta[k * p + j] - mean[j]) if j < d else 0.0
            gradient[k * p + j] = gradient[k * p + j] / n + ridge
    return data_loss / n + 0.5 * alpha * penalty(theta, mean, n_free, p), gradient


def slope_share(n_classes):
    """s of the module docstring: 1/K for K > 2 classes, 0 for two."""
    return 1.0 / n_classes if n_classes > 2 else 0.0


def slope_mean(theta, n_classes, p, d):
    """m = s sum_{k=1}^{K-1} w_k (the d slope coordinates; the w_k added in order of k)."""
    share = slope_share(n_classes)
    mean = [0.0] * d
    for k in range(n_classes - 1):
        for j in range(d):
            mean[j] += theta[k * p + j]
    return [share * total for total in mean]


def penalty(theta, mean, n_free, p):
    """R(w) = sum_{k=1}^{K-1} ||w_k - m||^2 + ||m||^2, added in that order."""
    total = 0.0
    for k in range(n_free):
        for j in range(len(mean)):
            total += (theta[k * p + j] - mean[j]) * (theta[k * p + j] - mean[j])
    for j in range(len(mean)):
        total += mean[j] * mean[j]
    return total


def block_sums(X, codes, theta, n_free, fit_intercept):
    """sum_i [log(1 + sum_k exp(z_ik)) - z_{i,y_i}] and sum_i (P_ik - 1{y_i = k}) x~_i over
    the samples given, in order from 0.0: the un-normalised loss and gradient."""
    p = len(theta) // n_free
    data_loss = 0.0
    gradient = [0.0] * len(theta)
    for x, y in zip(X, codes):
        x_tilde = augmented(x, fit_intercept)
        z = scores(theta, x_tilde, n_free)
        probabilities, log_normaliser = class_probabilities(z)
        z_y = z[y - 1] if y > 0 else 0.0
        data_loss += log_normaliser - z_y
        for k in range(n_free):
            residual = probabilities[k + 1] - (1.0 if y == k + 1 else 0.0)
            for j in range(p):
                gradient[k * p + j] += residual * x_tilde[j]
    return data_loss, gradient


def hessian(X, theta, n_classes, fit_intercept, alpha):
    """The Hessian of L, lower triangle (entries [r][c] with c <= r; the rest are 0).

    Summed as L is: ``block_hessian`` over ``summation``'s blocks, added in order."""
    size = len(theta)
    H = [[0.0] * size for _ in range(size)]
    for start, stop in summation.blocks(len(X), summation.SUM_BLOCK):
        block = block_hessian(X[start:stop], theta, n_classes, fit_intercept)
        for r in range(size):
            for c in range(r + 1):
                H[r][c] += block[r][c]
    n = len(X)
    d = len(X[0])
    p = size // (n_classes - 1)
    share = slope_share(n_classes)
    for r in range(size):
        for c in range(r + 1):
            H[r][c] = H[r][c] / n
            if c % p == r % p and r % p < d:      # the same slope coordinate of w_k, w_l
                H[r][c] = H[r][c] + alpha * ((1.0 if c == r else 0.0) - share)
    return H


def block_hessian(X, theta, n_classes, fit_intercept):
    """sum_i P_ik (1{k = l} - P_il) x~_i x~_i' over the samples given, in order from 0.0
    (lower triangle)."""
    n_free = n_classes - 1
    p = len(theta) // n_free
    H = [[0.0] * len(theta) for _ in range(len(theta))]
    for x in X:
        x_tilde = augmented(x, fit_intercept)
        probabilities, _ = class_probabilities(scores(theta, x_tilde, n_free))
        for k in range(n_free):
            for l in range(k + 1):
                # P_ik (1{k = l} - P_il)
                weight = probabilities[k + 1] * ((1.0 if k == l else 0.0) - probabilities[l + 1])
                for j in range(p):
                    a = weight * x_tilde[j]
                    row = H[k * p + j]
                    for jj in range(j + 1 if l == k else p):
                        row[l * p + jj] += a * x_tilde[jj]
    return H


def newton_direction(X, theta, gradient, n_classes, fit_intercept, alpha):
    """delta with H delta = -grad (``linalg.solve_dropping_dependent``: a direction whose
    Cholesky pivot vanishes, from collinear features or a vanished Hessian, gets 0)."""
    H = hessian(X, theta, n_classes, fit_intercept, alpha)
    delta, _ = linalg.solve_dropping_dependent(H, [-g for g in gradient],
                                               NEWTON_PIVOT_TOLERANCE)
    return delta


def sample_gradient(x, y, theta, n_classes, fit_intercept, alpha):
    """G_i(theta): the gradient of sample i's term, E_i G_i = grad L for i uniform."""
    n_free = n_classes - 1
    x_tilde = augmented(x, fit_intercept)
    p = len(x_tilde)
    d = len(x)
    probabilities, _ = class_probabilities(scores(theta, x_tilde, n_free))
    mean = slope_mean(theta, n_classes, p, d)
    G = [0.0] * len(theta)
    for k in range(n_free):
        residual = probabilities[k + 1] - (1.0 if y == k + 1 else 0.0)
        for j in range(p):
            ridge = alpha * (theta[k * p + j] - mean[j]) if j < d else 0.0
            G[k * p + j] = residual * x_tilde[j] + ridge
    return G


def smoothness_constant(eigenvalue_bound, n, n_classes, alpha):
    """An upper bound on the smoothness constant of L (the largest eigenvalue of its Hessian).

    H <= B (x) (X~'X~) / n + alpha I, where B bounds the Hessian of log(1 + sum_k e^{z_k}),
    diag(P) - P P' (classes 1..K-1): B = 1/4 for K = 2 (sigma(z) sigma(-z) <= 1/4) and
    B = 1/2 otherwise (Boehning's bound (1/2)(I - 11'/K) has largest eigenvalue 1/2).
    ``eigenvalue_bound`` bounds lambda_max(X~'X~) (``linalg.largest_eigenvalue_bound``), or
    max_i ||x~_i||^2 with n = 1 for one sample's term (used by sgd).
    """
    curvature = 0.25 if n_classes == 2 else 0.5
    return curvature * eigenvalue_bound / n + alpha


# ----------------------------------------------------------------------------------------
# The solvers: (theta, n_iter, converged, loss_curve).


def largest_magnitude(values):
    return max(abs(value) for value in values)


def newton(objective, direction, theta, max_iter, tol):
    """Damped Newton from theta: ``objective(theta) -> (L, grad L)``, and
    ``direction(theta, grad L)`` the Newton step delta solving H delta = -grad L."""
    loss, gradient = objective(theta)
    curve = [loss]
    n_iter = 0
    while largest_magnitude(gradient) > tol:
        if n_iter == max_iter:
            return theta, n_iter, False, curve
        delta = direction(theta, gradient)
        slope = linalg.dot(gradient, delta)
        if not slope < 0.0:          # no descent direction left (Hessian vanished)
            return theta, n_iter, False, curve
        accepted = _backtrack(objective, LIST_STEPS, theta, loss, gradient, delta, slope)
        if accepted is None:         # no decrease found: stalled at rounding level
            return theta, n_iter, False, curve
        theta, loss, gradient = accepted
        n_iter += 1
        curve.append(loss)
    theta, n_iter = _polish(objective, direction, theta, loss, gradient, n_iter, max_iter,
                            curve)
    return theta, n_iter, True, curve


def _polish(objective, direction, theta, loss, gradient, n_iter, max_iter, curve):
    """Full Newton steps past tol, to the maximum-likelihood estimate itself.

    Near the optimum Newton converges quadratically: a step of size e leaves an error of
    order e^2.  So at most POLISH_STEPS more unit steps are taken, each kept only if it does
    not increase L beyond its rounding nor max |grad|, stopping after a step below
    POLISH_SIZE relative to theta (whose successor would be below rounding).  At tol = 1e-4
    this is one or two steps, and the coefficients then solve the score equations to
    rounding, not merely to tol.
    """
    for _ in range(POLISH_STEPS):
        if n_iter == max_iter or largest_magnitude(gradient) == 0.0:
            break
        delta = direction(theta, gradient)
        trial = [a + b for a, b in zip(theta, delta)]
        trial_loss, trial_gradient = objective(trial)
        if (trial_loss - loss > 16.0 * EPSILON * abs(loss)
                or largest_magnitude(trial_gradient) > largest_magnitude(gradient)):
            break
        theta, loss, gradient = trial, trial_loss, trial_gradient
        n_iter += 1
        curve.append(loss)
        if largest_magnitude(delta) <= POLISH_SIZE * max(1.0, largest_magnitude(theta)):
            break
    return theta, n_iter


def _backtrack(objective, steps, theta, loss, gradient, delta, slope):
    """Armijo backtracking: the first t = 1, 1/2, 1/4, ... with sufficient decrease.

    Near the optimum the decrease drops below the rounding of L itself and the test can no
    longer see it; a step whose loss is equal to rounding (16 eps |L|) is then accepted when
    it reduces the largest gradient entry.
    """
    rounding = 16.0 * EPSILON * abs(loss)
    t = 1.0
    for _ in range(MAX_HALVINGS):
        trial = steps.moved(theta, t, delta)                 # theta + t delta
        trial_loss, trial_gradient = objective(trial)
        if trial_loss <= loss + ARMIJO_FRACTION * t * slope:
            return trial, trial_loss, trial_gradient
        if (trial_loss - loss <= rounding
                and steps.largest(trial_gradient) < steps.largest(gradient)):
            return trial, trial_loss, trial_gradient
        t = t / 2.0
    return None


def lbfgs(objective, theta, steps, max_iter, tol, memory=10):
    """L-BFGS from theta: ``objective(theta) -> (L, grad L)``; ``steps`` does the vector
    arithmetic (``ListSteps`` here: each entry one IEEE operation, dot products left to
    right).  Returns (theta, n_iter, converged, the losses)."""
    loss, gradient = objective(theta)
    curve = [loss]
    pairs = []                       # (s, y, 1 / y's) of the last ``memory`` steps, oldest first
    n_iter = 0
    while steps.largest(gradient) > tol:
        if n_iter == max_iter:
            return steps.as_list(theta), n_iter, False, curve
        delta = steps.direction(gradient, pairs)
        slope = steps.dot(gradient, delta)
        accepted = None
        if slope < 0.0:
            accepted = _backtrack(objective, steps, theta, loss, gradient, delta, slope)
        if accepted is None and pairs:   # the memory misled the step: restart from -grad
            pairs = []
            continue
        if accepted is None:
            return steps.as_list(theta), n_iter, False, curve
        new_theta, new_loss, new_gradient = accepted
        s = steps.difference(new_theta, theta)
        y = steps.difference(new_gradient, gradient)
        curvature = steps.dot(y, s)
        if 0.0 < curvature and 1.0 / curvature < math.inf:   # rho = 1 / y's finite
            pairs = (pairs + [(s, y, 1.0 / curvature)])[-memory:]
        theta, loss, gradient = new_theta, new_loss, new_gradient
        n_iter += 1
        curve.append(loss)
    return steps.as_list(theta), n_iter, True, curve


class ListSteps:
    """The vector arithmetic of ``lbfgs`` and ``_backtrack`` on lists, for theta of
    (K - 1) blocks of p entries.  refml_fast passes the same operations on arrays."""

    def __init__(self, p):
        self.precondition = class_coupling(p)

    dot = staticmethod(linalg.dot)

    @staticmethod
    def largest(values):
        return largest_magnitude(values)

    @staticmethod
    def moved(theta, t, delta):
        return [a + t * b for a, b in zip(theta, delta)]

    @staticmethod
    def difference(u, v):
        return [a - b for a, b in zip(u, v)]

    def direction(self, gradient, pairs):
        return lbfgs_direction(gradient, pairs, self.precondition)

    @staticmethod
    def as_list(theta):
        return theta


def lbfgs_direction(gradient, pairs, precondition):
    """-H grad by the two-loop recursion with H_0 = gamma P: P = ``precondition`` (see
    ``class_coupling``), gamma = s'y / y'Py of the newest pair (1/2 before the first step,
    so that a binary fit, where P = 2 I, starts along -grad)."""
    q = list(gradient)
    alphas = []
    for s, y, rho in reversed(pairs):                   # newest to oldest
        a = rho * linalg.dot(s, q)
        q = [q_j - a * y_j for q_j, y_j in zip(q, y)]
        alphas.append(a)
    gamma = 0.5
    if pairs:
        s, y, rho = pairs[-1]
        gamma = initial_scale(rho * linalg.dot(y, precondition(y)))
    r = [gamma * value for value in precondition(q)]
    for (s, y, rho), a in zip(pairs, reversed(alphas)):  # oldest to newest
        b = rho * linalg.dot(y, r)
        r = [r_j + (a - b) * s_j for r_j, s_j in zip(r, s)]
    return [-r_j for r_j in r]


def initial_scale(denominator):
    """gamma = 1 / (y'Py / s'y), or 1/2 (the first step's) when that is not a positive
    finite number: near the optimum, with tol = 0, y = the change of a gradient of about
    1e-160 can make y'Py underflow to 0 while s'y > 0 (a division by zero before)."""
    if 0.0 < denominator < math.inf:
        return 1.0 / denominator
    return 0.5


def class_coupling(p):
    """q -> P q with (P q)_k = q_k + sum_l q_l over the K - 1 blocks of length p.

    Why: [Yan]'s softmax has one vector phi_k per class; fixing class 0 (theta_k = phi_k -
    phi_0, theta = A phi) leaves the model unchanged but couples the classes in theta's
    coordinates.  L-BFGS run on phi from phi = 0 (its iterates stay where sum_k phi_k = 0)
    gives exactly the theta-iterates of L-BFGS with H_0 = gamma A A', and A A' = I + 1 1'
    per feature: with s'y, y'Py and the loops above the two recursions are the same.  In
    practice this halves the iterations for many classes (e.g. 22 -> 12 for K = 10); for
    K = 2, P = 2 I and gamma absorbs the 2 (exactly: a power of two), so binary fits
    take the same steps as plain L-BFGS."""
    def apply(q):
        n_blocks = len(q) // p
        total = [0.0] * p
        for k in range(n_blocks):
            for j in range(p):
                total[j] += q[k * p + j]
        return [q[k * p + j] + total[j] for k in range(n_blocks) for j in range(p)]
    return apply


def sgd_epoch(X, codes, theta, total, k, learning_rate, power_t, rng, n_classes,
              fit_intercept, alpha):
    """n steps of Algorithm 1 (no projection), drawing i uniformly from the n samples."""
    n = len(X)

    def stochastic_gradient(theta, rng):
        i = rng.randbelow(n)
        return sample_gradient(X[i], codes[i], theta, n_classes, fit_intercept, alpha)

    return sgd_module.run_steps(stochastic_gradient, theta, total, k, n, learning_rate,
                                power_t, None, rng)


LIST_STEPS = ListSteps(1)      # Newton's backtracking uses moved and largest only
