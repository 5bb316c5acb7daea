"""Item 19, beyond the lectures: where the statistics add up, learning in chunks equals
learning at once.

GaussianNB (per-class totals, means and variances, with random sample weights), LDA and
QDA (per-class counts, means and scatter matrices) pool a chunk's statistics into the
running ones by Chan, Golub and LeVeque's update, exact algebra of the two-pass sums; the
histogram on a given range adds bin counts.  Every instance: random data (2 to 5 classes,
Gaussian or on a small grid), a random split into consecutive chunks, partial_fit over
them, and fit on all the rows.  The slack is 1e-9 less the largest relative difference of
the fitted statistics (priors, means, variances or covariances), or for the histogram
minus the number of cells whose count differs.
"""

import math
import warnings

from ._harness import Theorem

SOURCE = "Chan, Golub and LeVeque (1979), pooled sums (beyond the lectures)"
TOLERANCE = 1e-9


def make_instance(rng):
    K = 2 + rng.randbelow(4)
    d = 1 + rng.randbelow(4)
    n = 3 * K + d + rng.randbelow(60)
    grid = rng.random() < 0.3
    centres = [[3.0 * rng.normal() for _ in range(d)] for _ in range(K)]
    codes = list(range(K)) * 2 + [rng.randbelow(K) for _ in range(n - 2 * K)]
    codes = [codes[i] for i in rng.permutation(n)]
    X = [[float(rng.randbelow(7) - 3) if grid else c + rng.normal() for c in centres[k]]
         for k in codes]
    splits = sorted({1 + rng.randbelow(n - 1) for _ in range(rng.randbelow(8))})
    weights = [float(rng.randbelow(4)) if rng.random() < 0.5 else rng.random() + 0.01
               for _ in range(n)]
    return {"X": X, "y": codes, "splits": splits, "weights": weights,
            "reg_param": (0.0, 0.1)[rng.randbelow(2)], "bins": 1 + rng.randbelow(9)}


def chunks(instance):
    bounds = [0] + instance["splits"] + [len(instance["y"])]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def relative_gap(a, b):
    a = a.tolist() if hasattr(a, "tolist") else a
    b = b.tolist() if hasattr(b, "tolist") else b
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return math.inf
        return max((relative_gap(u, v) for u, v in zip(a, b)), default=0.0)
    return abs(a - b) / max(1.0, abs(a), abs(b))


def compare(make, attributes, weighted=False):
    def check(instance):
        import refml

        X, y, w = instance["X"], instance["y"], instance["weights"]
        extra = (lambda a, b: {"sample_weight": w[a:b]}) if weighted else (lambda a, b: {})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                batch = make(refml, instance).fit(X, y, **extra(0, len(y)))
            except ValueError:          # a singular covariance, say: nothing to compare
                return 0.0
            streamed = make(refml, instance)
            for a, b in chunks(instance):
                streamed.partial_fit(X[a:b], y[a:b], classes=sorted(set(y)), **extra(a, b))
        gap = max(relative_gap(getattr(batch, name), getattr(streamed, name))
                  for name in attributes)
        return TOLERANCE - gap

    return check


def check_histogram(instance):
    import refml

    X = instance["X"]
    lows = [min(row[j] for row in X) - 0.5 for j in range(len(X[0]))]
    highs = [max(row[j] for row in X) + 0.5 for j in range(len(X[0]))]
    window = list(zip(lows, highs))
    batch = refml.Histogram(bins=instance["bins"], range=window).fit(X)
    streamed = refml.Histogram(bins=instance["bins"], range=window)
    for a, b in chunks(instance):
        streamed.partial_fit(X[a:b])
    cells = set(batch.counts_) | set(streamed.counts_)
    return -float(sum(batch.counts_.get(c) != streamed.counts_.get(c) for c in cells)
                  + (batch.n_samples_ != streamed.n_samples_))


def size(instance):
    return len(instance["X"]) * len(instance["X"][0])


def describe(instance):
    return f"chunks={chunks(instance)} reg_param={instance['reg_param']} {instance!r}"


def _theorem(title, check):
    return Theorem(number=19, title=title, source=SOURCE, make_instance=make_instance,
                   check=check, size=size, describe=describe, quick=60, default=300,
                   full=3000)


THEOREMS = [
    _theorem("partial_fit = fit: GaussianNB with sample weights",
             compare(lambda lib, inst: lib.GaussianNB(),
                     ("class_count_", "class_prior_", "theta_", "var_"), weighted=True)),
    _theorem("partial_fit = fit: LinearDiscriminantAnalysis",
             compare(lambda lib, inst: lib.LinearDiscriminantAnalysis(
                 reg_param=inst["reg_param"]), ("priors_", "means_", "covariance_"))),
    _theorem("partial_fit = fit: QuadraticDiscriminantAnalysis",
             compare(lambda lib, inst: lib.QuadraticDiscriminantAnalysis(
                 reg_param=inst["reg_param"]), ("priors_", "means_", "covariance_"))),
    _theorem("partial_fit = fit: Histogram on a given range", check_histogram),
]
