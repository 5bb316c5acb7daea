"""The perceptron (Rosenblatt, 1957) and its mistake bound (Novikoff, 1962).

The model is the linear threshold function of [Wainwright-L2], eq. (2.23),

    y_hat(x) = sign(theta'x~),   x~ = [1, x],   theta~ = [theta_0, theta_1, ..., theta_d],

with the bias carried by the augmented x~ of [IML-L5], section 3.2, and sign(0) = +1.

The rule.  Start from theta^0 = 0.  Point i is a *mistake* when y_i theta'x~_i <= 0
([NN-Notes], Algorithm 5), and a mistake is corrected by  theta <- theta + gamma_t y_i x~_i.
The order in which mistakes are visited (``order``, the four functions of
``refml.perceptron.orders``):

- "cyclic": passes over i = 1..n, correcting each mistake on the way ([MATH412]); it stops
  after a pass with no mistake;
- "batch": [NN-Notes], Algorithm 5: scan from i = 1, correct the *first* mistake found,
  scan again from i = 1; it stops when a scan finds no mistake;
- "random": draw i uniformly among the current mistakes m(theta^t) ([Yan]: "for a random
  i" in the set of mistakes), until m(theta^t) is empty;
- "uniform": [MATH412]'s non-separable case: draw i uniformly among all n points, update
  only if it is a mistake; stops after a pass (n draws) that leaves no mistake at all.

The step (``schedule``): "constant" gamma_t = ``learning_rate``, or "decreasing"
gamma_t = learning_rate / t, t = 1, 2, ... the number of points examined so far, so that
sum gamma_t = infinity and sum gamma_t^2 < infinity: theta then stabilises even when no
separator exists ([MATH412]).  ``max_iter`` counts passes: n points examined (n sweeps,
n examinations of batch scans, n draws).

Stopping early (beyond the lectures, scikit-learn's rule).  On data that no hyperplane
separates every pass finds a mistake, and the lectures' loop runs all ``max_iter`` passes.
With ``tol`` set, a pass also sums the perceptron loss max(0, -y_i theta'x~_i) of each
point it examines, theta as it is at that moment (the running estimate of [Yan]'s
criterion that a stochastic gradient method sees; order="random" examines the point it
draws).  A pass whose loss is above best - tol * n, best the lowest pass loss so far,
counts as no improvement; ``n_iter_no_change`` of them in a row stop the fit, unconverged
(``refml.perceptron.patience``).  A pass with no mistake still stops it first, converged.
``tol=None`` is the lectures' rule.

Theorem 2.3 ([Wainwright-L2]; Novikoff's proof in [NN-Notes]): on data separated by theta*
with margin delta = min_i y_i theta*'x_i / ||theta*|| > 0 and R = max_i ||x_i||, the number
of updates is at most R^2 / delta^2 (``mistake_bound``), for every order and constant step.
The perceptron criterion of [Yan], sigma(theta) = -sum_{i in M} y_i theta'x~_i, is
``perceptron_criterion``.

Notes on the printed lectures.  [Wainwright-L2] (the set m(theta), section 2.3.4) and
[MATH412] print the strict form y_i theta'x_i < 0; from theta^0 = 0 nothing is then a
mistake and the algorithm stops at once, so the code follows Algorithm 5 and [Yan]'s set
M_beta, which use <=.  [IML-L5] writes theta~ = [-b, w] (so ``intercept_`` = theta_0 = -b)
and the update theta <- theta + (1/2)(y - y_hat) x~, y_hat = sign(theta'x~): that is the
update above with gamma = 1 whenever theta'x~ != 0; at theta'x~ = 0, sign(0) = +1 counts a
point with y = +1 as correct there (no update) while y theta'x~ = 0 <= 0 is a mistake here.
Any constant gamma > 0 makes the same mistakes (theta^t is gamma times the gamma = 1
iterate; exactly so in floats when gamma is a power of 2).  [NN-Notes]'s proof prints
y_t^2 ||x_t^2||^2 = ||x_t^2|| <= R^2; read y_t^2 ||x_t||^2 = ||x_t||^2 <= R^2.
"""

import copy
import math

from refml.core import linalg, validation
from refml.core.base import warn_not_converged
from refml.core.online import OnlineClassifier
from refml.core.random import check_random_state, validate_random_state
from refml.perceptron.multiclass import ClassesRule
from refml.perceptron.orders import run_order
from refml.perceptron.patience import Patience
from refml.perceptron.theorem import signed_rows

ORDERS = ("cyclic", "batch", "random", "uniform")
SCHEDULES = ("constant", "decreasing")
MULTI_CLASS = ("ovr", "multinomial")


# ----------------------------------------------------------------------------------------
# The binary rule; the orders that apply it are in ``refml.perceptron.orders``.


def is_mistake(theta, x, y):
    """y theta'x <= 0: a point on the boundary is a mistake ([NN-Notes], Algorithm 5).

    Written not (y theta'x > 0) so that a NaN margin (inf - inf when theta'x overflows,
    entries near 1e154 or larger) is a mistake too, never a silent "correct"."""
    return not y * linalg.dot(theta, x) > 0.0


def mistake_loss(theta, x, y):
    """max(0, -y theta'x): 0 for a point classified right, else |theta'x| (> 0 or NaN),
    and 0.0 for a point on the boundary, which ``is_mistake`` counts as a mistake."""
    margin = y * linalg.dot(theta, x)
    return 0.0 if margin > 0.0 else -margin


def update(theta, x, step):
    """theta <- theta + step x in place, step = gamma_t y_i (the greedy update of [NN-Notes]:
    afterwards y_i theta'x_i has grown by gamma_t ||x_i||^2)."""
    for j in range(len(theta)):
        theta[j] += step * x[j]


class BinaryRule:
    """The binary rule on rows x~_i with y_i in {-1, +1}, for ``refml.perceptron.orders``."""

    def __init__(self, rows, y):
        self.rows, self.y, self.n = rows, y, len(rows)

    def mistake(self, theta, i):
        return is_mistake(theta, self.rows[i], self.y[i])

    def loss(self, theta, i):
        return mistake_loss(theta, self.rows[i], self.y[i])

    def correct(self, theta, i, gamma):
        update(theta, self.rows[i], gamma * self.y[i])


# ----------------------------------------------------------------------------------------
# [Yan]'s criterion.


def perceptron_criterion(theta, X, y, fit_intercept=True):
    """[Yan]'s perceptron criterion, the loss the perceptron learning algorithm minimises:

        sigma(theta) = - sum_{i in M} y_i x~_i'theta,   M = {i : y_i x~_i'theta <= 0},

    with x~_i = [1, x_i] when ``fit_intercept`` (theta = [theta_0, theta_1..d]) and labels
    classes_[0] -> -1, classes_[1] -> +1.  Each term is |x~_i'theta|, which is ||theta||
    times the distance from x~_i to the hyperplane H = {x~ : x~'theta = 0}, so sigma is
    proportional to the summed distances of the misclassified points, as the slide says;
    and -y_i x~_i is its gradient's term, so the update theta + y_i x~_i for a random i in M
    is a stochastic gradient step with step size 1.
    """
    X, labels, rows, signs = signed_rows(X, y, fit_intercept, "perceptron_criterion")
    theta = validation.as_matrix([theta], "theta")[0]
    if len(theta) != len(rows[0]):
        raise ValueError(f"theta has {len(theta)} entries, expected {len(rows[0])}")
    total = 0.0
    for sign, x in zip(signs, rows):
        margin = sign * linalg.dot(theta, x)
        if margin <= 0.0:                                  # i in M(theta)
            total -= margin
    return total


# ----------------------------------------------------------------------------------------
# The estimator: validation, labels and attributes around the rules and orders.


class Perceptron(OnlineClassifier):
    """Binary perceptron: theta <- theta + gamma_t y_i x~_i on every mistake y_i theta'x~_i <= 0.
    More than two classes and ``partial_fit``: beyond the lectures (see below).

    Parameters
    ----------
    order : "cyclic", "batch", "random" or "uniform"
        Which mistake is corrected next (see the module docstring).
    learning_rate : float > 0
        gamma ([MATH412]), eta ([Yan]): the constant step, or the scale of the
        decreasing one.
    schedule : "constant" or "decreasing"
        gamma_t = learning_rate, or gamma_t = learning_rate / t with t the number of points
        examined so far (sum gamma_t = inf, sum gamma_t^2 < inf).
    fit_intercept : bool
        Learn a bias through x~ = [1, x] ([IML-L5]); if False the boundary passes
        through the origin, as in [Wainwright-L2] and [NN-Notes].
    max_iter : int >= 1
        The cap on passes over the data (a pass = n points examined).
    tol : float >= 0 or None
        Stop early when ``n_iter_no_change`` passes in a row do not bring the summed
        perceptron loss of a pass below best - tol * n (scikit-learn's rule and default; see
        the module docstring).  None: the lectures' loop, until a pass without a mistake
        or ``max_iter``.
    n_iter_no_change : int >= 1
        How many passes without improvement stop the fit (unused when tol is None).
    random_state : int, numpy RandomState or Generator, or None
        Seed of the draws of order="random" and "uniform" (unused by the other orders).
    store_trajectory : bool
        Keep theta^0 = 0, theta^1, ... (one entry per update) in ``trajectory_``.
    multi_class : "ovr" or "multinomial"
        With K > 2 classes: one binary perceptron per class against the rest
        (scikit-learn's rule), or the multi-class perceptron of
        ``refml.perceptron.multiclass`` (one vector per class, trained together).  With two
        classes both are the binary perceptron.

    Attributes
    ----------
    classes_ : the sorted labels; with two, classes_[0] plays y = -1, classes_[1] y = +1.
    coef_ : theta_1..theta_d, a vector of length d (K rows with K > 2 classes).
    intercept_ : theta_0 (0.0 when fit_intercept is False; K entries with K > 2 classes).
    n_mistakes_ : the number of updates made (the t of Theorem 2.3); "ovr": one per class.
    n_iter_ : the number of passes used (the last one possibly partial); "ovr": the most.
    converged_ : True when the fit ended on a pass or scan with no mistake, so that the
        final theta separates the training data; False when ``max_iter`` or ``tol`` stopped
        it (a ``ConvergenceWarning`` is emitted and the last theta is kept, a usable model).
    trajectory_ : [theta~^0, theta~^1, ...] with theta~ = [theta_0, theta_1..d] (or
        [theta_1..d] without intercept; "multinomial": the K vectors), or None unless
        store_trajectory.
    estimators_ : "ovr" with K > 2 classes: the K binary perceptrons (with their own
        ``trajectory_``; the multi-class one is None).

    More than two classes (beyond the lectures).  "ovr": perceptron k is fitted to +1 on
    class k and -1 on the others with the same parameters (and the same random_state); the
    prediction is argmax_k theta_k'x~, the first class on a tie.  "multinomial": the K
    vectors start at 0 and a mistake (a class k != c scoring at least theta_c'x~) moves
    theta_c towards x~ and the first best such k's away; at most 2 R^2 / delta^2 updates on
    separable data (``multiclass_mistake_bound``).  ``decision_function`` gives K columns.

    Learning online (beyond the lectures): ``partial_fit(X, y, classes=...)`` runs one pass
    of the chosen order over the chunk (``max_iter`` and ``tol`` are for ``fit``),
    starting from theta as the earlier calls left it; t (the decreasing step's) and the
    random stream go on across calls.  ``n_mistakes_`` and ``n_iter_`` add up over the
    calls; ``converged_`` says whether the last chunk's pass found no mistake.  Theorem 2.3
    bounds the mistakes of all the calls together on separable data.  ``partial_fit``
    after ``fit`` goes on from the fitted theta with t = n_iter_ * n.

    Invariances (conformance item 20): the features' order and, one-vs-rest, the classes'
    names change no prediction; without an intercept neither does the features' common
    scale (every test and update scales alike).  The rows' order does: the perceptron
    learns in that order (``order``), and the constant feature 1 of the intercept does not
    scale.

    Examples
    --------
    >>> model = Perceptron().fit([[0.0, 0.0], [1.0, 1.0], [3.0, 3.0], [4.0, 3.0]], [0, 0, 1, 1])
    >>> model.predict([[0.5, 0.0], [3.5, 3.5]]), model.converged_
    ([0, 1], True)
    """

    def __init__(self, *, order="cyclic", learning_rate=1.0, schedule="constant",
                 fit_intercept=True, max_iter=1000, tol=1e-3, n_iter_no_change=5,
                 random_state=None, store_trajectory=False, multi_class="ovr"):
        self.order = order
        self.learning_rate = learning_rate
        self.schedule = schedule
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state
        self.store_trajectory = store_trajectory
        self.multi_class = multi_class

    def _check_params(self, X):
        validation.check_option(self.order, "order", ORDERS)
        validation.check_scalar(self.learning_rate, "learning_rate", "real", 0.0, math.inf,
                                low_open=True, high_open=True)
        validation.check_option(self.schedule, "schedule", SCHEDULES)
        validation.check_bool(self.fit_intercept, "fit_intercept")
        validation.check_scalar(self.max_iter, "max_iter", "int", 1)
        if self.tol is not None:
            validation.check_scalar(self.tol, "tol", "real", 0.0, math.inf, high_open=True)
        validation.check_scalar(self.n_iter_no_change, "n_iter_no_change", "int", 1)
        validation.check_bool(self.store_trajectory, "store_trajectory")
        validation.check_option(self.multi_class, "multi_class", MULTI_CLASS)
        validate_random_state(self.random_state)

    # --- fit and partial_fit ---
    def _one_vs_rest(self):
        return len(self.classes_) > 2 and self.multi_class == "ovr"

    def _fit(self, X, codes):
        if self._one_vs_rest():
            models = [type(self)(**self.get_params()).fit(X, self._one_class(codes, k))
                      for k in range(len(self.classes_))]
            self._store_one_vs_rest(models)
            return
        self._stream = {"theta": self._zero_theta(), "examined": 0,
                        "generator": check_random_state(self.random_state)}
        n_mistakes, n_iter, converged, trajectory = self._learn_passes(
            X, codes, self.max_iter, self.tol)
        self._stream["examined"] = n_iter * self._n_rows_cols(X)[0]
        self._store(n_mistakes, n_iter, converged, trajectory)
        if not converged:
            stop = (f"max_iter={self.max_iter} passes" if n_iter == self.max_iter else
                    f"{n_iter} passes, the last n_iter_no_change={self.n_iter_no_change} "
                    f"without lowering a pass's perceptron loss by tol * n = {self.tol} * "
                    f"{self._n_rows_cols(X)[0]}")
            warn_not_converged(
                f"Perceptron did not converge: it stopped after {stop}, every pass with a "
                f"mistake ({n_mistakes} updates); the data may not be linearly separable. "
                "The last theta is kept.")

    def _partial_fit(self, X, codes, weights):
        if self._one_vs_rest():
            models = self.__dict__.get("estimators_") or [
                type(self)(**self.get_params()) for _ in self.classes_]
            for k, model in enumerate(models):
                model.partial_fit(X, self._one_class(codes, k), classes=[0, 1])
            self._store_one_vs_rest(models)
            return
        if "_stream" not in self.__dict__:
            self._stream = {"theta": self._zero_theta(), "examined": 0,
                            "generator": check_random_state(self.random_state)}
            done = (0, 0, None)
        else:
            done = (self.n_mistakes_, self.n_iter_, self.trajectory_)
        n_mistakes, _, converged, trajectory = self._learn_passes(X, codes, 1, None)
        self._stream["examined"] += self._n_rows_cols(X)[0]
        if done[2] is not None and trajectory is not None:
            trajectory = self._joined(done[2], trajectory)
        self._store(done[0] + n_mistakes, done[1] + 1, converged, trajectory)

    def _learn_passes(self, X, codes, max_iter, tol):
        """Passes from the state in ``_stream``; (n_mistakes, n_iter, converged, trajectory),
        the trajectory starting from theta before the passes."""
        stream = self._stream
        n_mistakes, n_iter, converged, trajectory = self._run_passes(
            X, codes, stream["theta"], stream["examined"], max_iter, tol,
            stream["generator"])
        if not self._finite(stream["theta"]):
            raise ValueError("Perceptron: theta overflowed float64 (the entries of X are too "
                             "large for sums of products theta_j x_j); rescale the features")
        return n_mistakes, n_iter, converged, trajectory

    def _run_passes(self, X, codes, theta, examined, max_iter, tol, generator):
        """The order's passes, theta updated in place: the loop refml_fast replaces."""
        rows = [[1.0] + x for x in X] if self.fit_intercept else X
        if len(self.classes_) > 2:
            rule = ClassesRule(rows, codes)
        else:
            rule = BinaryRule(rows, self.signs_from_codes(codes))
        trajectory = [copy.deepcopy(theta)] if self.store_trajectory else None
        patience = Patience(tol, self.n_iter_no_change, len(rows))
        run = run_order(self.order, rule, theta, examined, self.learning_rate,
                        self.schedule == "decreasing", max_iter, trajectory, patience,
                        generator)
        return run + (trajectory,)

    def _zero_theta(self):
        p = self.n_features_in_ + (1 if self.fit_intercept else 0)
        if len(self.classes_) > 2:
            return [[0.0] * p for _ in self.classes_]
        return [0.0] * p

    @staticmethod
    def _finite(theta):
        rows = theta if theta and isinstance(theta[0], list) else [theta]
        return all(math.isfinite(value) for row in rows for value in row)

    @staticmethod
    def _joined(earlier, later):
        """The trajectory of the calls so far, then this call's (its first entry, theta
        before the call, is the last entry of the earlier ones)."""
        return earlier + later[1:]

    def _store(self, n_mistakes, n_iter, converged, trajectory):
        theta = self._stream["theta"]
        if len(self.classes_) > 2:
            self.intercept_ = self._as_output([row[0] if self.fit_intercept else 0.0
                                               for row in theta])
            self.coef_ = self._as_output([row[1:] if self.fit_intercept else row
                                          for row in theta])
        else:
            self.intercept_ = float(theta[0]) if self.fit_intercept else 0.0
            self.coef_ = self._as_output(theta[1:] if self.fit_intercept else theta)
        self.n_mistakes_ = n_mistakes
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.trajectory_ = trajectory if self.store_trajectory else None

    def _store_one_vs_rest(self, models):
        self.coef_ = self._as_output([list(model.coef_) for model in models])
        self.intercept_ = self._as_output([model.intercept_ for model in models])
        self.n_mistakes_ = [model.n_mistakes_ for model in models]
        self.n_iter_ = max(model.n_iter_ for model in models)
        self.converged_ = all(model.converged_ for model in models)
        self.trajectory_ = None
        self.estimators_ = models

    @staticmethod
    def _one_class(codes, k):
        """1 on the rows of class k, 0 elsewhere: the labels of k's perceptron."""
        return [1 if code == k else 0 for code in codes]

    # --- predict ---
    def decision_function(self, X):
        """theta'x~ = theta_0 + sum_j theta_j x_j for each row (its sign is the prediction);
        with K > 2 classes a row of theta_k'x~, one per class."""
        X = self._validate_predict(X)
        if len(self.classes_) > 2:
            return self._as_output(self._class_scores(X))
        return self._as_output(self._decision_values(X, self.coef_, self.intercept_))

    def _class_scores(self, X):
        """theta_k'x~ of each class's vector, as rows."""
        columns = [self._decision_values(X, coef, intercept)
                   for coef, intercept in zip(self.coef_, self.intercept_)]
        return [list(row) for row in zip(*columns)]

    @staticmethod
    def _decision_values(X, coef, intercept):
        scores = []
        for x in X:
            # The same float operations, in the same order, as dot(theta~, x~) during fit.
            score = 0.0 + intercept
            for theta_j, x_j in zip(coef, x):
                score += theta_j * x_j
            scores.append(score)
        return scores

    def _predict_codes(self, X):
        if len(self.classes_) > 2:                 # argmax_k, the first class on a tie
            return [linalg.argmax(scores) for scores in self._class_scores(X)]
        # sign(0) = +1: a point on the boundary goes to classes_[1].
        return [1 if score >= 0.0 else 0
                for score in self._decision_values(X, self.coef_, self.intercept_)]
