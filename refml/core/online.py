"""Learning in pieces: ``partial_fit``, scikit-learn's contract (beyond the lectures).

The lectures fit on the whole sample at once.  Two kinds of estimator can also learn from
it a chunk at a time, and ``OnlineClassifier`` gives both the same contract:

- online algorithms, whose state after a chunk is the state after the rows seen so far
  (the perceptron, stochastic gradient descent): a call runs one pass over the chunk;
- estimators built from statistics that add up (counts, means and scatter matrices of
  each class, bin counts): a call pools the chunk's statistics into the running ones
  (``pool_moments``, ``pool_scatter``) and rebuilds the model from them.

The contract, as scikit-learn's ``partial_fit``:

- the first call must name every class (``classes=``); a later call may repeat the same
  list, nothing else;
- a label outside those classes, or a chunk with another number of features, is refused
  with a ValueError, and the estimator is left as it was (nothing is mutated by a call
  that raises);
- the hyper-parameters are those of the first call: changing one between calls is refused
  (call ``fit`` to start over with new ones);
- ``fit`` starts over; ``partial_fit`` after ``fit`` goes on from the fitted state.

A model built from statistics may not exist yet after a call (a class with no row so far,
or a covariance still singular): the statistics are kept, and until a later chunk makes
the model exist, ``predict`` raises NotFittedError saying why.  Each estimator keeps its
running state in ``_stream``, which ``fit`` sets anew.
"""

import copy

from refml.core import interop, validation
from refml.core.base import Classifier, NotFittedError


class OnlineClassifier(Classifier):
    """A classifier with ``partial_fit``; subclasses write ``_partial_fit(X, codes, weights)``
    (codes index the fixed ``classes_``) and set ``_partial_fit_weights`` when they take
    sample weights."""

    _partial_fit_weights = False

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Learn from one more chunk X, y (see ``refml.core.online``); returns self.

        classes : every label the stream will hold; required on the first call.
        sample_weight : non-negative weights of the chunk's rows, where ``fit`` takes them.
        """
        first = "classes_" not in self.__dict__
        X = self._as_matrix(X)
        n_samples, n_features = self._n_rows_cols(X)
        if first:
            fixed = self._first_classes(classes)
        else:
            fixed = self.classes_
            self._check_same_classes(classes)
            validation.check_n_features(n_features, self.n_features_in_, type(self).__name__)
        chunk_classes, chunk_codes = self._encode_labels(y)
        validation.check_consistent_length(n_samples, len(chunk_codes))
        codes = self._recode(chunk_codes, class_positions(fixed, chunk_classes))
        weights = self._chunk_weights(sample_weight, n_samples)
        if first:
            self._check_params(X)
            backup = None
        else:
            backup = copy.deepcopy(self.__dict__)
        self.classes_ = fixed
        self.n_features_in_ = n_features
        try:
            self._partial_fit(X, codes, weights)
        except BaseException:
            if backup is None:
                self._forget()
            else:
                self.__dict__.clear()
                self.__dict__.update(backup)
            raise
        return self

    def _first_classes(self, classes):
        if classes is None:
            raise ValueError(f"{type(self).__name__}.partial_fit: classes must be passed on "
                             "the first call (every label the stream will hold), e.g. "
                             "classes=[0, 1, 2]")
        fixed, _ = self._encode_labels(classes)
        validation.check_n_classes(fixed, self._min_classes, type(self).__name__)
        return fixed

    def _check_same_classes(self, classes):
        if classes is None:
            return
        given, _ = self._encode_labels(classes)
        if interop.plain_labels(given) != interop.plain_labels(self.classes_):
            raise ValueError(f"classes={interop.plain_labels(given)!r} is not the same as "
                             f"on the first call to partial_fit "
                             f"({interop.plain_labels(self.classes_)!r}); call fit to start "
                             "over with other classes")

    def _chunk_weights(self, sample_weight, n_samples):
        if sample_weight is None:
            return None
        if not self._partial_fit_weights:
            raise ValueError(f"{type(self).__name__}.partial_fit takes no sample_weight (its "
                             "fit takes none either)")
        try:
            return self._as_weights(sample_weight, n_samples)
        except ValueError:
            # A chunk whose weights are all 0 is no error in a stream: it teaches nothing.
            if not all_zero(sample_weight, n_samples):
                raise
            ones = self._as_weights(None, n_samples)
            return ones * 0.0 if hasattr(ones, "shape") else [0.0] * n_samples

    def _recode(self, chunk_codes, positions):
        """The chunk's codes (indices into its own sorted labels) as indices into
        ``classes_`` (refml_fast: one numpy take)."""
        return self._as_codes([positions[code] for code in chunk_codes])

    def _partial_fit(self, X, codes, weights):
        raise NotImplementedError

    def _present_classes(self, X, codes, weights):
        """(X, local codes, weights, present): the chunk's rows of the classes it holds
        (with a positive total weight), their codes 0..m-1 among those m classes, and the
        m codes in ``classes_``: what the statistics of a chunk are computed on."""
        totals = [0.0] * len(self.classes_)
        for i, code in enumerate(codes):
            totals[code] += 1.0 if weights is None else weights[i]
        present = [k for k, total in enumerate(totals) if total > 0.0]
        local = {k: position for position, k in enumerate(present)}
        keep = [i for i, code in enumerate(codes) if code in local]
        return ([X[i] for i in keep], [local[codes[i]] for i in keep],
                None if weights is None else [weights[i] for i in keep], present)

    def _check_is_fitted(self):
        super()._check_is_fitted()
        reason = self.__dict__.get("_not_ready")
        if reason is not None:
            raise interop.not_fitted_error(NotFittedError, (
                f"This {type(self).__name__} has learned from partial_fit, but its model "
                f"does not exist yet: {reason}. Call partial_fit with more data"))


def all_zero(sample_weight, n_samples):
    """Whether sample_weight is n_samples numbers that are all exactly 0."""
    values = interop.as_plain_array(sample_weight)
    values = values.tolist() if hasattr(values, "tolist") else values
    try:
        values = list(values)
    except TypeError:
        return False
    return len(values) == n_samples and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0 for v in values)


def class_positions(fixed, chunk_classes):
    """Where each of the chunk's labels sits in the fixed classes; a label that is not
    there is refused."""
    index = {label: k for k, label in enumerate(interop.plain_labels(fixed))}
    positions = []
    for label in interop.plain_labels(chunk_classes):
        if label not in index:
            raise ValueError(f"y holds the label {label!r}, which is not one of the classes "
                             f"given on the first call to partial_fit "
                             f"{interop.plain_labels(fixed)!r}")
        positions.append(index[label])
    return positions


# ----------------------------------------------------------------------------------------
# Statistics that add up.  Two groups of rows with totals W_a, W_b (counts, or sums of
# weights), means m_a, m_b and scatter S_a, S_b (the sums of (x - m)(x - m)') pool into
#
#     W = W_a + W_b,   m = m_a + (W_b / W) d,   S = S_a + S_b + (W_a W_b / W) d d',
#
# d = m_b - m_a (Chan, Golub and LeVeque, 1979: the exact algebra of the two-pass sums, so
# the pooled values equal the values from all rows at once to rounding).


def pool_group(total_a, mean_a, total_b, mean_b):
    """(W, m, d, c) of two groups: W = W_a + W_b, m = m_a + (W_b / W) d, d = m_b - m_a and
    c = W_a W_b / W, the factor of d d' in the pooled scatter."""
    total = total_a + total_b
    share = total_b / total
    d = [mb - ma for ma, mb in zip(mean_a, mean_b)]
    mean = [ma + share * dj for ma, dj in zip(mean_a, d)]
    return total, mean, d, total_a * total_b / total


def pool_moments(total_a, mean_a, var_a, total_b, mean_b, var_b):
    """(W, m, v) of two groups given by (W, m, v) each, v the variance with divisor W
    (diagonal: one entry per feature): v = (W_a v_a + W_b v_b + c d^2) / W."""
    total, mean, d, cross = pool_group(total_a, mean_a, total_b, mean_b)
    var = [(total_a * va + total_b * vb + cross * (dj * dj)) / total
           for va, vb, dj in zip(var_a, var_b, d)]
    return total, mean, var


def add_scatter(S_a, S_b, cross, d):
    """S_a + S_b + c d d': the scatter of two groups pooled (each S a d x d list)."""
    return [[S_a[j][l] + S_b[j][l] + cross * (d[j] * d[l]) for l in range(len(d))]
            for j in range(len(d))]
