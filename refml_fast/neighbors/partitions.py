"""Exact k-NN with the training rows in the blocks of a dask array (refml.neighbors.partitions
states the rule and writes the merge; this runs it on a cluster).

Each block is searched where it lives, by refml_fast's own exact search (the squared
distances are the floats the search over all rows computes), and answers its k best as
(squared distance, global index, class code); the driver merges them by (squared distance,
global index) and votes as ``KNeighborsClassifier`` does, so predictions, probabilities
and neighbours equal those of ``KNeighborsClassifier`` fitted on all the rows in memory.
Only the queries travel to the workers and q x k answers per block come back: the training
rows never leave their blocks.  Euclidean metric (see refml.neighbors.partitions).
"""

import numpy as np

from refml.core import validation
from refml.core.base import BaseEstimator, NotFittedError
from refml_fast.core import arrays as _arrays
from refml_fast.neighbors.knn import KNeighborsClassifier


def block_model(X_block, codes_block, k, n_classes):
    """One block's search structure: a KNeighborsClassifier fitted on the block's rows with
    its class codes (k capped at the block's size)."""
    X_block = np.ascontiguousarray(X_block, dtype=np.float64)
    model = KNeighborsClassifier(n_neighbors=min(k, X_block.shape[0]))
    model._learn(X_block, np.asarray(codes_block, dtype=np.int64), np.arange(n_classes),
                 X_block.shape[1])
    return model


def block_neighbors(model, first, X_query):
    """One block's k best for every query (fewer when the block is smaller):
    (squared distances, global indices, class codes), arrays of q rows."""
    squared, local = model._kneighbors_squared(X_query)
    return squared, local + first, model._fit_codes[local]


def merge_blocks(answers, k):
    """refml's ``merge_neighbors`` for every query at once: the k smallest of the blocks'
    answers by (squared distance, global index)."""
    squared = np.concatenate([a[0] for a in answers], axis=1)
    indices = np.concatenate([a[1] for a in answers], axis=1)
    codes = np.concatenate([a[2] for a in answers], axis=1)
    order = np.lexsort((indices, squared), axis=1)[:, :k]   # by distance, then index
    return (np.take_along_axis(squared, order, axis=1),
            np.take_along_axis(indices, order, axis=1), np.take_along_axis(codes, order, axis=1))


class PartitionedKNeighborsClassifier(BaseEstimator):
    """k-NN on training rows that stay in the blocks of a dask array (beyond the lectures).

    ``fit(X, y)`` takes dask arrays (X of n x d in blocks of rows, y of n labels) and keeps
    them lazy; ``predict``, ``predict_proba`` and ``kneighbors`` take the queries in memory
    and answer as ``KNeighborsClassifier(n_neighbors).fit(X.compute(), y.compute())``
    would, bit for bit, computing each block's part where the block is.

    Parameters
    ----------
    n_neighbors : int, default 1
        k; 1 <= k <= the number of training rows.

    Attributes
    ----------
    classes_ : the sorted labels;  n_features_in_, n_samples_fit_;  block_starts_ : the
    global index of each block's first row.
    """

    _estimator_type = "classifier"

    def __init__(self, n_neighbors=1):
        self.n_neighbors = n_neighbors

    def fit(self, X, y):
        import dask
        import dask.array as da

        if X.ndim != 2 or y.ndim != 1:
            raise ValueError(f"X must be a 2-D dask array and y a 1-D one, got {X.ndim}-D "
                             f"and {y.ndim}-D")
        X = X.rechunk({1: -1})                       # blocks of whole rows
        y = y.rechunk((X.chunks[0],))
        n = int(X.shape[0])
        validation.check_consistent_length(n, int(y.shape[0]))
        validation.check_scalar(self.n_neighbors, "n_neighbors", "int", low=1, high=n)
        classes = np.unique(da.unique(y).compute())
        validation.check_n_classes(list(classes), 2, type(self).__name__)
        self.classes_ = classes
        self.n_features_in_ = int(X.shape[1])
        self.n_samples_fit_ = n
        self.block_starts_ = np.concatenate([[0], np.cumsum(X.chunks[0])[:-1]]).astype(
            np.int64)
        codes = y.map_blocks(lambda block: np.searchsorted(classes, block), dtype=np.int64)
        # Each block's search structure is built once, where the block is, and stays there
        # (dask.persist: futures on a distributed cluster, in memory without one).
        self._models = dask.persist(*[
            dask.delayed(block_model)(X_block, codes_block, self.n_neighbors, len(classes))
            for X_block, codes_block in zip(X.to_delayed().ravel(),
                                            codes.to_delayed().ravel())])
        return self

    def _merged(self, X_query):
        import dask

        if "classes_" not in self.__dict__:
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. "
                                 "Call 'fit' with appropriate arguments before using it.")
        X_query = _arrays.as_matrix(X_query)
        validation.check_n_features(X_query.shape[1], self.n_features_in_,
                                    type(self).__name__)
        X_query = dask.delayed(X_query)             # one copy of the queries per worker
        answers = dask.compute(*[dask.delayed(block_neighbors)(model, int(first), X_query)
                                 for model, first in zip(self._models, self.block_starts_)])
        return merge_blocks(answers, self.n_neighbors)

    def _counts(self, codes):
        counts = np.zeros((codes.shape[0], len(self.classes_)), dtype=np.int64)
        np.add.at(counts, (np.arange(codes.shape[0])[:, None], codes), 1)
        return counts

    def predict(self, X):
        """The majority class of the k nearest rows, the first in classes_ on a tie."""
        counts = self._counts(self._merged(X)[2])
        return self.classes_[np.argmax(counts, axis=1)]

    def predict_proba(self, X):
        """counts / k, columns in classes_ order."""
        return self._counts(self._merged(X)[2]) / float(self.n_neighbors)

    def kneighbors(self, X):
        """(distances, global indices) of the k nearest training rows, nearest first."""
        squared, indices, _ = self._merged(X)
        return np.sqrt(np.maximum(squared, 0.0)), indices

    def score(self, X, y):
        return float(np.mean(self.predict(X) == np.asarray(y)))
