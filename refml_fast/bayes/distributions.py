"""Known distributions over numpy: the hot cores of large finite supports as kernels.

``FiniteDistribution`` overrides sampling (inversion of the running sums by binary search,
the same uniforms and the same index as ``Generator.choice``), the posterior of many rows
(lexicographic binary search of each row among the sorted support points) and the exact
risk of a rule's predictions (the same sum, i then k, as refml).  ``GaussianClasses`` and
``PassFailExample`` have no hot core: they run refml's code and return numpy arrays.
"""

import numpy as np

import refml.bayes.distributions as reference
from refml.bayes.known import check_dimension, check_sample_size
from refml.core import linalg
from refml.core.random import check_random_state
from refml_fast.core import arrays as _arrays
from refml_fast.core import random as _random
from refml_fast.runtime.options import kernel

__all__ = ["FiniteDistribution", "GaussianClasses", "PassFailExample", "make_separable"]


def _rows(X):
    """Rows as lists of floats, for the reference code (numpy scalars would be slower)."""
    return X.tolist() if hasattr(X, "tolist") else X


def _labels(classes, codes):
    return np.asarray(classes)[np.asarray(codes, dtype=np.int64)]


class FiniteDistribution(reference.FiniteDistribution):
    __doc__ = reference.FiniteDistribution.__doc__ + """
    refml_fast: give ``points`` and ``probabilities`` as numpy arrays for a large support;
    they are then validated with numpy (lists go through refml's checks first).  The
    attributes ``points``, ``probabilities`` and ``prior`` are float64 arrays.
    """

    _as_matrix = staticmethod(_arrays.as_matrix)

    def _check_probabilities(self, table):
        negative = table < 0.0
        if negative.any():  # the first negative entry in row-major order, as refml reports
            raise ValueError(reference.negative_probability_message(
                float(table.ravel()[np.argmax(negative.ravel())])))
        total = sequential_sum_kernel(np.ascontiguousarray(table).ravel())
        if abs(total - 1.0) > reference.PROBABILITY_TOLERANCE:
            raise ValueError(reference.probability_sum_message(float(total)))

    def _check_distinct(self, points):
        """Sort the support lexicographically (column 0 first): equal rows become
        neighbours; the same repeat as refml's scan is reported (the first i whose point
        appeared before, and the first j where it did).  The order serves the row search."""
        order = np.arange(points.shape[0], dtype=np.int64)
        argsort_rows_kernel(points, order, np.empty_like(order))
        ordered = np.ascontiguousarray(points[order])
        same = np.all(ordered[1:] == ordered[:-1], axis=1)
        if same.any():
            group = np.concatenate(([0], np.cumsum(~same)))  # group id of each sorted row
            first = np.full(group[-1] + 1, len(order), dtype=np.int64)
            second = np.full(group[-1] + 1, len(order), dtype=np.int64)
            for position, g in enumerate(group.tolist()):  # only when a repeat exists
                index = int(order[position])
                if index < first[g]:
                    first[g], second[g] = index, first[g]
                elif index < second[g]:
                    second[g] = index
            g = int(np.argmin(second))
            raise ValueError(reference.duplicate_point_message(
                int(second[g]), points[second[g]].tolist(), int(first[g])))
        self._order, self._sorted_points = order, ordered

    def _store(self, points, table, classes, order):
        self.points = self._points_array = points
        self.probabilities = self._probability_array = np.ascontiguousarray(table[:, order])
        self.classes = classes
        self.n_features = points.shape[1]
        self.prior = self._prior_array = np.zeros(len(classes))
        column_sums_kernel(self._probability_array, self._prior_array)
        self._flat_array = self._probability_array.ravel()
        self._total = linalg.total(self._flat_array.tolist())  # as Generator.choice does
        self._cumulative_array = np.empty_like(self._flat_array)
        running_sums_kernel(self._flat_array, self._cumulative_array)
        self._last_positive = int(np.flatnonzero(self._flat_array > 0.0)[-1])

    def bayes_risk(self, *, loss=None, return_error=False):
        if loss is not None:       # refml's sum over the support in order (small: K^2 m)
            return super().bayes_risk(loss=loss, return_error=return_error)
        risk = float(bayes_risk_kernel(self._probability_array))
        return (risk, 0.0) if return_error else risk

    def posterior(self, x):
        return self._posterior_rows(np.array([[float(v) for v in x]], dtype=np.float64))[0]

    def _posterior_rows(self, X):
        queries = np.ascontiguousarray(X, dtype=np.float64)
        check_dimension(queries.shape[1], self.n_features)
        index = np.empty(queries.shape[0], dtype=np.int64)
        find_rows_kernel(self._sorted_points, self._order, queries, index)
        out = np.empty((queries.shape[0], len(self.classes)), dtype=np.float64)
        posterior_kernel(self._probability_array, self._prior_array, index, out)
        return out

    def _support_rows(self):
        return self._points_array

    def risk_of_predictions(self, predictions, loss=None):
        if loss is not None:       # refml's sum over the support in order (small: K^2 m)
            return super().risk_of_predictions(predictions, loss)
        return float(risk_kernel(self._probability_array, self._codes_of(predictions)))

    def _codes_of(self, predictions):
        predicted = np.asarray(predictions)
        if predicted.shape != (len(self.points),):
            raise ValueError(f"need one prediction per support point: got "
                             f"{len(predicted)} for {len(self.points)} points")
        classes = np.asarray(self.classes)
        numeric = classes.dtype.kind in "biuf" and predicted.dtype.kind in "biuf"
        if not (numeric or (classes.dtype.kind == "U" and predicted.dtype.kind == "U")):
            return np.asarray(super()._codes_of(predicted.tolist()), dtype=np.int64)
        position = np.minimum(np.searchsorted(classes, predicted), len(classes) - 1)
        return np.where(classes[position] == predicted, position, -1).astype(np.int64)

    def sample(self, n, random_state=None):
        check_sample_size(n)
        generator = check_random_state(random_state)
        state = _random.state_array(generator)
        drawn = np.empty(n, dtype=np.int64)
        sample_kernel(self._cumulative_array, self._total, self._last_positive, state, drawn)
        _random.store_state(generator, state)
        n_classes = len(self.classes)
        return self._points_array[drawn // n_classes], _labels(self.classes, drawn % n_classes)


class GaussianClasses(reference.GaussianClasses):
    __doc__ = reference.GaussianClasses.__doc__

    def posterior(self, x):
        return np.asarray(super().posterior(_rows(x)), dtype=np.float64)

    def _posterior_rows(self, X):
        return np.array(super()._posterior_rows(_rows(X)), dtype=np.float64)

    def sample(self, n, random_state=None):
        X, y = super().sample(n, random_state)
        return np.array(X, dtype=np.float64), np.asarray(y)


class PassFailExample(reference.PassFailExample):
    __doc__ = reference.PassFailExample.__doc__

    def posterior(self, x):
        return np.asarray(super().posterior(x), dtype=np.float64)

    def _posterior_rows(self, X):
        return np.array(super()._posterior_rows(_rows(X)), dtype=np.float64)

    def sample(self, n, random_state=None):
        X, y = super().sample(n, random_state)
        return np.array(X, dtype=np.float64), np.asarray(y, dtype=np.int64)


def make_separable(n, d, margin, random_state=None, return_separator=False):
    X, y, theta = reference.make_separable(n, d, margin, random_state, return_separator=True)
    X, y = np.array(X, dtype=np.float64), np.asarray(y, dtype=np.int64)
    return (X, y, np.array(theta, dtype=np.float64)) if return_separator else (X, y)


make_separable.__doc__ = reference.make_separable.__doc__


# ----------------------------------------------------------------------------------------
# Kernels: no validation; outputs allocated by the caller.


@kernel
def running_sums_kernel(flat, out):
    """out[j] = flat[0] + ... + flat[j], added left to right (as refml)."""
    running = 0.0
    for j in range(flat.shape[0]):
        running += flat[j]
        out[j] = running


@kernel
def sequential_sum_kernel(values):
    """values[0] + values[1] + ..., left to right (as refml's loop)."""
    total = 0.0
    for j in range(values.shape[0]):
        total += values[j]
    return total


@kernel
def column_sums_kernel(probabilities, out):
    """out[k] = sum_i p_ik, over i in order (the class prior, as refml)."""
    for i in range(probabilities.shape[0]):
        for k in range(probabilities.shape[1]):
            out[k] += probabilities[i, k]


@kernel
def bayes_risk_kernel(probabilities):
    """sum_i (sum_k p_ik - max_k p_ik), each row summed left to right (as refml)."""
    risk = 0.0
    for i in range(probabilities.shape[0]):
        mass = 0.0
        largest = probabilities[i, 0]
        for k in range(probabilities.shape[1]):
            mass += probabilities[i, k]
            if probabilities[i, k] > largest:
                largest = probabilities[i, k]
        risk += mass - largest
    return risk


@kernel
def sample_kernel(cumulative, total, last_positive, state, out):
    """Generator.choice by inversion: the first j with u * total < c_j (else the last j
    of positive mass), one uniform u per draw."""
    m = cumulative.shape[0]
    for r in range(out.shape[0]):
        target = _random.random(state) * total
        low, high = 0, m
        while low < high:
            middle = (low + high) // 2
            if target < cumulative[middle]:
                high = middle
            else:
                low = middle + 1
        out[r] = low if low < m else last_positive


@kernel
def compare_rows(a, b):
    """-1, 0 or 1 as a is lexicographically below, equal to, or above b."""
    for j in range(a.shape[0]):
        if a[j] < b[j]:
            return -1
        if a[j] > b[j]:
            return 1
    return 0


@kernel
def argsort_rows_kernel(points, order, buffer):
    """Sort ``order`` (initially 0..m-1) so that points[order] is lexicographically sorted;
    stable (equal rows keep index order): bottom-up merge sort, ``buffer`` is scratch."""
    m = order.shape[0]
    width = 1
    while width < m:
        for low in range(0, m, 2 * width):
            middle, high = min(low + width, m), min(low + 2 * width, m)
            i, j, out = low, middle, low
            while i < middle and j < high:
                if compare_rows(points[order[j]], points[order[i]]) < 0:
                    buffer[out] = order[j]
                    j += 1
                else:
                    buffer[out] = order[i]
                    i += 1
                out += 1
            while i < middle:
                buffer[out] = order[i]
                i += 1
                out += 1
            while j < high:
                buffer[out] = order[j]
                j += 1
                out += 1
        for t in range(m):
            order[t] = buffer[t]
        width *= 2


@kernel
def find_rows_kernel(sorted_points, order, queries, out):
    """out[r] = i with points[i] == queries[r] (binary search in sorted order), or -1."""
    for r in range(queries.shape[0]):
        out[r] = -1
        low, high = 0, sorted_points.shape[0]
        while low < high:
            middle = (low + high) // 2
            sign = compare_rows(sorted_points[middle], queries[r])
            if sign < 0:
                low = middle + 1
            elif sign > 0:
                high = middle
            else:
                out[r] = order[middle]
                break


@kernel
def posterior_kernel(probabilities, prior, index, out):
    """out[r, k] = p_ik / sum_j p_ij for i = index[r]; the prior where that is undefined."""
    n_classes = probabilities.shape[1]
    for r in range(index.shape[0]):
        i = index[r]
        mass = 0.0
        if i >= 0:
            for k in range(n_classes):
                mass += probabilities[i, k]
        if mass == 0.0:
            for k in range(n_classes):
                out[r, k] = prior[k]
        else:
            for k in range(n_classes):
                out[r, k] = probabilities[i, k] / mass


@kernel
def risk_kernel(probabilities, codes):
    """sum_i sum_{k != codes[i]} p_ik, i then k in order (as refml)."""
    risk = 0.0
    for i in range(probabilities.shape[0]):
        for k in range(probabilities.shape[1]):
            if k != codes[i]:
                risk += probabilities[i, k]
    return risk
