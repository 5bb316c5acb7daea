"""What makes a refml class a refml_fast class: numpy in, numpy out.

``FastMixin`` overrides only the representation hooks of ``refml.core.base.Classifier``;
validation, labels, parameters and the fit/predict plumbing are inherited unchanged.
Put it first in the bases: ``class Perceptron(FastMixin, refml.perceptron.Perceptron)``.
"""

import numpy as np

from refml.core import interop
from refml_fast.core import arrays as _arrays
from refml_fast.runtime import spec_first
from refml_fast.runtime.cache import announce_compilation


class FastMixin:
    """Data as C-contiguous float64 arrays; label codes as int64; weights and results as
    float64 arrays."""

    @staticmethod
    def _as_matrix(X):
        return _arrays.as_matrix(X)

    def _learn(self, X, codes, classes, n_features, *fit_args):
        """refml's ``_learn``; or, while the chapter's kernels are not compiled and the
        work is small, refml's own fit taken over (``refml_fast.runtime.spec_first``)."""
        with spec_first.fitting(self):
            if spec_first.fit(self, X, codes, classes, n_features, fit_args):
                return self
            announce_compilation(type(self))
            super()._learn(X, codes, classes, n_features, *fit_args)
            spec_first.kernels_ran(self)
            return self

    @staticmethod
    def _answers_in_numpy(X):
        """refml_fast's ``classes_`` and ``feature_names_in_`` are always numpy arrays."""
        return True

    def _encode_labels(self, y):
        y = interop.as_plain_array(y)   # a pandas Series through its values
        if isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype.kind in "iub":
            return _arrays.encode_integer_labels(y)   # every entry is a valid label
        classes, codes = super()._encode_labels(y)
        return classes, np.asarray(codes, dtype=np.int64)

    @staticmethod
    def _as_codes(codes):
        return np.asarray(codes, dtype=np.int64)

    @staticmethod
    def _recode(chunk_codes, positions):
        """refml's recoding of a partial_fit chunk's labels, as one take."""
        return np.asarray(positions, dtype=np.int64)[np.asarray(chunk_codes, dtype=np.int64)]

    def _present_classes(self, X, codes, weights):
        """refml's rows of the classes a chunk holds, by numpy masks."""
        codes = np.asarray(codes, dtype=np.int64)
        totals = np.bincount(codes, weights=weights, minlength=len(self.classes_))
        present = np.flatnonzero(totals > 0.0)
        local = np.full(len(self.classes_), -1, dtype=np.int64)
        local[present] = np.arange(len(present))
        keep = local[codes] >= 0
        if keep.all():
            return X, local[codes], weights, present.tolist()
        return (np.ascontiguousarray(X[keep]), local[codes[keep]],
                None if weights is None else weights[keep], present.tolist())

    @staticmethod
    def _as_output(values):
        return np.asarray(values, dtype=np.float64)

    def _labels_from_codes(self, codes):
        return interop.labels_as_numpy(self._classes())[np.asarray(codes, dtype=np.int64)]

    @staticmethod
    def _n_rows_cols(X):
        return X.shape

    @staticmethod
    def _class_counts(codes, n_classes):
        """refml's n_k as Python ints from a bincount (refml's loop over 100,000 numpy codes
        took 8 ms of GaussianNB's 14 ms fit and predict)."""
        return np.bincount(np.asarray(codes, dtype=np.int64), minlength=n_classes).tolist()

    @staticmethod
    def _as_weights(sample_weight, n_samples):
        return _arrays.as_sample_weight(sample_weight, n_samples)

    @staticmethod
    def _relative_weights(weights):
        return _arrays.relative_weights(weights)

    def _from_reference_state(self):
        """After loading a file refml saved: the learned lists as arrays
        (``refml_fast.core.model_state``)."""
        from refml_fast.core import model_state

        model_state.from_reference(self)
