"""More than two classes by one-vs-one, as LIBSVM does it.  Beyond the lectures: [Yan]
states the SVM for two classes.

For classes c_0 < c_1 < ... < c_{K-1} (``classes_``) there is one binary SVM per pair (i, j),
i < j, in that order: fitted on the rows of c_i and c_j alone, c_i as -1 and c_j as +1 (the
binary rule of ``svc``), with the same C and kernel, and the gamma computed on all of X
("scale", "auto"), as LIBSVM gets one gamma.  A row x gets one vote from each pair: c_j
when f_ij(x) >= 0, else c_i; the class with the most votes wins, a tie going to the first in
``classes_`` (LIBSVM's rule).

The fitted attributes follow scikit-learn's layout, with LIBSVM's signs: a pair's value is
positive towards its first class, so it is -f_ij(x).

- ``support_``: every row that is a support vector of some pair, grouped by class
  (classes_ order), ascending within a class; ``n_support_``: how many of each class.
- ``dual_coef_``: K - 1 rows over those support vectors.  Pair (i, j) puts the
  coefficients of its support vectors of class c_i in row j - 1 and those of class c_j in
  row i, each -alpha_s y_s (y_s = -1 for c_i, +1 for c_j), so LIBSVM's alpha_s y_s.
- ``intercept_``: -beta_0 of each pair; ``coef_`` (linear kernel): -beta of each pair.
- ``decision_function``: ``decision_function_shape="ovo"`` gives the K(K - 1)/2 values -f_ij;
  "ovr" gives, for each class, its votes plus its summed confidences s (each pair adds
  f_ij to c_j and -f_ij to c_i) mapped into (-1/3, 1/3) by s / (3 (|s| + 1)), scikit-learn's
  transformation, so that the argmax is the vote winner unless confidences break a tie.
- ``break_ties=True`` (with "ovr") predicts that argmax instead of the vote winner.
"""

from refml.core import linalg


def pairs(n_classes):
    """The pairs (i, j), i < j, in LIBSVM's order: (0, 1), (0, 2), ..., (K - 2, K - 1)."""
    return [(i, j) for i in range(n_classes) for j in range(i + 1, n_classes)]


def pair_rows(codes, i, j):
    """The rows of classes i and j, in order, and their codes in the pair (0 for i, 1 for j)."""
    rows = [t for t, code in enumerate(codes) if code == i or code == j]
    return rows, [0 if codes[t] == i else 1 for t in rows]


def support_layout(n_classes, codes, pair_supports):
    """(support_, n_support_) from each pair's support rows (indices into X)."""
    support = sorted({t for rows in pair_supports for t in rows})
    by_class = [[t for t in support if codes[t] == k] for k in range(n_classes)]
    return [t for rows in by_class for t in rows], [len(rows) for rows in by_class]


def dual_coefficients(n_classes, codes, support, pair_supports, pair_coefficients):
    """The K - 1 rows of ``dual_coef_`` over ``support`` (see the module docstring)."""
    position = {t: p for p, t in enumerate(support)}
    rows = [[0.0] * len(support) for _ in range(n_classes - 1)]
    for (i, j), supports, coefficients in zip(pairs(n_classes), pair_supports,
                                              pair_coefficients):
        for t, coefficient in zip(supports, coefficients):
            row = j - 1 if codes[t] == i else i
            rows[row][position[t]] = -coefficient
    return rows


def pair_support_positions(n_classes, support, n_support, dual_coef):
    """For each pair, the positions in ``support_`` of its support vectors, in the pair's
    own order (ascending training rows): its rows of class c_i with a coefficient in
    ``dual_coef_`` row j - 1, its rows of class c_j with one in row i.

    LIBSVM predicts from them: K(x_s, x) once per support vector s of the whole model,
    then each pair sums its own terms, where pair by pair a vector serving two pairs (its
    class against two others) would have its kernel value computed twice."""
    starts = [0]
    for count in n_support:
        starts.append(starts[-1] + count)
    positions = []
    for i, j in pairs(n_classes):
        found = ([p for p in range(starts[i], starts[i + 1]) if dual_coef[j - 1][p] != 0.0]
                 + [p for p in range(starts[j], starts[j + 1]) if dual_coef[i][p] != 0.0])
        positions.append(sorted(found, key=lambda p: support[p]))
    return positions


def votes(n_classes, decisions):
    """Each row's votes: pair (i, j) votes c_j where f_ij(x) >= 0, else c_i (LIBSVM's rule),
    from ``decisions[k][r]``, f_ij of the k-th pair at row r."""
    n_rows = len(decisions[0])
    counts = [[0] * n_classes for _ in range(n_rows)]
    for (i, j), values in zip(pairs(n_classes), decisions):
        for r, value in enumerate(values):
            counts[r][j if value >= 0.0 else i] += 1
    return counts


def ovr_values(n_classes, decisions):
    """scikit-learn's "ovr" decision values: votes + s / (3 (|s| + 1)) per class, s the
    class's summed confidences (f_ij added to c_j, subtracted from c_i, pair by pair).
    These votes count a pair for c_j where f_ij(x) > 0, for c_i at f_ij(x) = 0, as
    scikit-learn's transformation does."""
    n_rows = len(decisions[0])
    values = [[0.0] * n_classes for _ in range(n_rows)]
    sums = [[0.0] * n_classes for _ in range(n_rows)]
    for (i, j), pair_values in zip(pairs(n_classes), decisions):
        for r, value in enumerate(pair_values):
            sums[r][i] -= value
            sums[r][j] += value
            values[r][j if value > 0.0 else i] += 1.0
    for r in range(n_rows):
        for k in range(n_classes):
            s = sums[r][k]
            values[r][k] += s / (3.0 * (abs(s) + 1.0))
    return values


def first_maximum(rows):
    """The index of the largest entry of each row, the first on a tie."""
    return [linalg.argmax(row) for row in rows]
