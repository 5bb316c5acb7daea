"""Gaussian class statistics shared by LDA and QDA (refml.discriminant).

[Yan] ("Plug-in approach") and [IML-L5] section 4.1 estimate, for each class k,

    n_k = #{i : y_i = k},    mu_k = (1/n_k) sum_{i: y_i = k} x_i,
    S_k = sum_{i: y_i = k} (x_i - mu_k)(x_i - mu_k)'            (the scatter matrix),

and build the covariances from the scatter matrices: LDA pools them,
Sigma = (S_1 + ... + S_K) / (N - K) ([Yan]) or / N (the maximum-likelihood estimate of
[MATH412]); QDA keeps one per class, Sigma_k = S_k / n_k ([IML-L5] section 4.1).

The order of every sum is part of the contract: rows in data order, the lower triangle
(l <= j) accumulated and mirrored.  refml_fast's kernels follow the same order, so the
two packages build the same floats.

A covariance enters the model through its Cholesky factor L (Sigma = L L').  Pivot j of the
factorisation is the variance of feature j left after regressing it on features 0..j-1,
so the ratio pivot_j / Sigma_jj = 1 - R_j^2 says how far feature j is from a linear
combination of the features before it.  ``factor_covariance`` refuses a covariance whose
ratio falls to ``SINGULAR_TOLERANCE`` (a constant feature, collinear features, a class with
one sample): the Gaussian density does not exist there, and the floats would be noise.
"""

import math

from refml.core import linalg, online

# 1 - R^2 at or below this: the covariance is singular to working precision (the
# rounding error of a pivot is about 1e-16 / (1 - R^2) relative, 1e-6 at this threshold).
SINGULAR_TOLERANCE = 1e-10


class SingularCovarianceError(ValueError):
    """A covariance estimate is singular (or nearly): the Gaussian model is undefined."""


def class_counts_and_means(X, codes, n_classes):
    """(n_k, mu_k) for k = 0..K-1: mu_k = (1/n_k) sum_{i: y_i = k} x_i."""
    n_features = len(X[0])
    counts = [0] * n_classes
    sums = [[0.0] * n_features for _ in range(n_classes)]
    for x, k in zip(X, codes):
        counts[k] += 1
        total = sums[k]
        for j in range(n_features):
            total[j] += x[j]
    means = [[total / counts[k] for total in sums[k]] for k in range(n_classes)]
    return counts, means


def class_scatter_matrices(X, codes, means):
    """S_k = sum_{i: y_i = k} (x_i - mu_k)(x_i - mu_k)' for every class k."""
    n_features = len(X[0])
    scatters = [[[0.0] * n_features for _ in range(n_features)] for _ in means]
    for x, k in zip(X, codes):
        centered = linalg.subtract(x, means[k])       # x_i - mu_k
        S = scatters[k]
        for j in range(n_features):
            for l in range(j + 1):                    # lower triangle, l <= j
                S[j][l] += centered[j] * centered[l]
    for S in scatters:
        mirror_lower_triangle(S)
    return scatters


def pool_class_statistics(stream, present, counts, means, scatter, pooled):
    """The running {"counts", "means", "scatter"} with a chunk's pooled in (beyond the
    lectures: ``partial_fit``).  The chunk holds the classes ``present`` (its class
    position -> code in classes_), with counts n_k, means mu_k and either its pooled
    scatter W (``pooled``, LDA) or one S_k per class (QDA).  Per class, Chan's update
    (``refml.core.online``): n = n_a + n_b, mu = mu_a + (n_b / n) d, and the scatter gains
    S_b + (n_a n_b / n) d d', d = mu_b - mu_a; W gains the chunk's W and every class's
    (n_a n_b / n) d d'.  A class seen for the first time takes the chunk's values."""
    counts_now, means_now = list(stream["counts"]), list(stream["means"])
    scatter_now = stream["scatter"]
    if not pooled and scatter_now is None:
        scatter_now = [None] * len(counts_now)
    elif not pooled:
        scatter_now = list(scatter_now)
    corrections = []
    for position, k in enumerate(present):
        if counts_now[k] == 0:
            counts_now[k], means_now[k] = counts[position], list(means[position])
            if not pooled:
                scatter_now[k] = [list(row) for row in scatter[position]]
            continue
        n, mu, d, cross = online.pool_group(counts_now[k], means_now[k], counts[position],
                                            means[position])
        counts_now[k], means_now[k] = n, mu
        if pooled:
            corrections.append((cross, d))
        else:
            scatter_now[k] = online.add_scatter(scatter_now[k], scatter[position], cross, d)
    if pooled:
        W = [list(row) for row in scatter] if scatter_now is None else \
            [[a + b for a, b in zip(row_a, row_b)] for row_a, row_b in zip(scatter_now, scatter)]
        for cross, d in corrections:                 # each class's (n_a n_b / n) d d'
            W = [[W[j][l] + cross * (d[j] * d[l]) for l in range(len(d))]
                 for j in range(len(d))]
        scatter_now = W
    return {"counts": counts_now, "means": means_now, "scatter": scatter_now}


def mirror_lower_triangle(S):
    """Copy S[j][l] (l < j) to S[l][j]: a symmetric matrix from its lower triangle."""
    for j in range(len(S)):
        for l in range(j):
            S[l][j] = S[j][l]


def pooled_scatter(scatters):
    """W = S_1 + ... + S_K, summed in class order."""
    n_features = len(scatters[0])
    W = [[0.0] * n_features for _ in range(n_features)]
    for S in scatters:
        for j in range(n_features):
            for l in range(n_features):
                W[j][l] += S[j][l]
    return W


def divide(S, divisor):
    """S / divisor, entry by entry."""
    return [[value / divisor for value in row] for row in S]


def shrink(Sigma, reg_param):
    """(1 - r) Sigma + r I: shrinkage towards the identity (r = reg_param in [0, 1]).

    The eigenvalues move to (1 - r) lambda + r >= r, so for r > 0 the matrix is positive
    definite.  r = 0 returns Sigma unchanged.
    """
    if reg_param == 0.0:
        return [list(row) for row in Sigma]
    keep = 1.0 - reg_param
    return [[keep * value + (reg_param if j == l else 0.0) for l, value in enumerate(row)]
            for j, row in enumerate(Sigma)]


def factor_covariance(Sigma, what, reg_param):
    """The Cholesky factor L of Sigma (L L' = Sigma), or ``SingularCovarianceError``.

    ``what`` names the matrix in the message ("the pooled covariance", "the covariance of
    class 'a'"); ``reg_param`` is quoted there so the user knows what to change.
    """
    _check_finite(Sigma, what)
    try:
        L = linalg.cholesky(Sigma)
        if all(L[j][j] * L[j][j] > SINGULAR_TOLERANCE * Sigma[j][j] for j in range(len(L))):
            return L
    except linalg.SingularMatrixError:
        pass
    raise SingularCovarianceError(singular_message(what, _first_dependent_feature(Sigma),
                                                   reg_param))


def _first_dependent_feature(Sigma):
    """The first j whose pivot fails: L_jj^2 <= SINGULAR_TOLERANCE * Sigma_jj, or <= 0.

    Only on the error path: factor the leading blocks one size at a time, so that the
    reported feature is the first culprit, not a later pivot spoiled by it.
    """
    for size in range(1, len(Sigma) + 1):
        j = size - 1
        try:
            L = linalg.cholesky([row[:size] for row in Sigma[:size]])
        except linalg.SingularMatrixError:
            return j
        if L[j][j] * L[j][j] <= SINGULAR_TOLERANCE * Sigma[j][j]:
            return j
    return len(Sigma) - 1


def singular_message(what, index, reg_param):
    return (f"{what} is singular to working precision: feature {index} (0-based) is "
            "constant or a linear combination of the features before it within the classes "
            f"(1 - R^2 <= {SINGULAR_TOLERANCE:g}), e.g. collinear features or a class with "
            f"a single sample; the Gaussian density is undefined. Set reg_param > 0 "
            f"(currently {reg_param!r}) to use (1 - reg_param) Sigma + reg_param I, or remove "
            "the redundant features (or, if X holds values so small that their squares "
            "underflow to 0, rescale X)")


def _check_finite(Sigma, what):
    for row in Sigma:
        for value in row:
            if not math.isfinite(value):
                raise ValueError(overflow_message(what))


def overflow_message(what):
    return f"{what} overflows the float range (X has values too large to square); rescale X"


def check_means_finite(means):
    for mean in means:
        for value in mean:
            if not math.isfinite(value):
                raise ValueError("a class mean overflows the float range; rescale X")


def scores_overflow_message():
    return ("the discriminant scores of some rows of X overflow the float range (values of "
            "X far too large for the fitted model); rescale X")