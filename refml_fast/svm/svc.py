"""The SVM of refml.svm with SMO, kernel rows and scores as Numba kernels (refml_fast.svm.smo,
refml_fast.svm.gram).

Only the hot methods are overridden: solving the dual, the gamma="scale" sum, beta from the
support vectors, the scores f(x) - beta_0, and the support set and alpha_i y_i on arrays.
The intercept and the KKT measures are refml's own functions compiled by Numba; primal recovery,
warnings and validation are refml's, unchanged, so support sets, coefficients and
predictions are identical to refml's.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from refml.svm import one_vs_one
from refml.svm import svc as reference
from refml_fast.core.base import FastMixin
from refml_fast.runtime import spec_first
from refml_fast.runtime import threads as _config
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel
from refml_fast.svm import gram as _gram
from refml_fast.svm import kernel_rows as _kernel_rows
from refml_fast.svm import pair_scores as _pair_scores
from refml_fast.svm import smo as _smo
from refml_fast.svm.smo_scans import compact_store

# About the serial seconds of a score's parts (``_raw_scores``), one core, measured: a term of a
# kernel sum in lanes (poly 8,891 x 66 with 13 support vectors: 0.7 ms, 1,431 x 65 with 135:
# 0.6 ms), rbf's exponential in lanes (``exponential.exp_lanes``: rbf 10,000 x 20 with
# 1,876, 33 ms in all; 20,000 x 2 with 927, 18 ms), poly's power, a term of beta'x.  The
# scores go to the threads from SCORES_FROM seconds of it when the cores are free
# (``run_parallel``; a size of 1 is SCORES_FROM's 0.2 ms).
LANE_TERM_SECONDS, EXP_SECONDS, POWER_SECONDS = 0.07e-9, 1e-9, 0.5e-9
LINEAR_SCORE_SECONDS, SCORES_FROM = 0.25e-9, 2e-4
# More than two classes: the pairs go to the threads from this many training rows (rbf,
# ten classes, d = 20, best of five fits on two cores: 1,000 rows 7.3 ms in a loop, 11.7
# on threads; 2,000 rows 13.7 and 13.7; 4,000 rows 43.1 and 27.8).
PAIRS_ON_THREADS_FROM = 3_000


@spec_first.tiered
class SVC(FastMixin, reference.SVC):
    __doc__ = reference.SVC.__doc__

    @staticmethod
    def _scale_gamma(X):
        return float(_gram.scale_gamma(X))

    def _kernel_diagonal(self, X):
        return _gram.diagonal_and_norms(X, _gram.KERNEL_CODES[self.kernel], self.gamma_,
                                       self.degree, float(self.coef0))[0]

    @staticmethod
    def _all_finite(values):
        return bool(np.isfinite(values).all())

    @staticmethod
    def _largest(values):
        return float(np.max(values))

    @staticmethod
    def signs_from_codes(codes):
        return np.where(np.asarray(codes) == 1, 1.0, -1.0)

    def _solve_dual(self, X, y, C, diagonal):
        n = X.shape[0]
        alpha = np.empty(n)
        v = np.empty(n)
        cache = _kernel_rows.row_cache(n)
        code = _gram.KERNEL_CODES[self.kernel]
        with _kernel_rows.row_panels(X, code) as panels:
            n_iter, status = _smo.smo(
                X, panels, y, code, self.gamma_, self.degree,
                float(self.coef0), C, float(self.tol), self.max_iter, alpha, cache, v, diagonal,
                compact_store(X.shape[0]))
        _kernel_rows.give_back(cache)
        gradient = -y * v                             # G_t = -y_t v_t, exactly refml's G
        scores = y * (gradient + 1.0)                 # refml's scores_from_gradient
        return alpha, int(n_iter), _smo.STATUS[int(status)], scores

    @staticmethod
    def _support(alpha):
        return np.flatnonzero(np.asarray(alpha) > 0.0)

    @staticmethod
    def _signed_multipliers(alpha, y, support):
        return np.asarray(alpha)[support] * y[support]

    @staticmethod
    def _rows(X, support):
        return X[support]

    def _training_scores(self, X):
        return self._raw_scores(X).tolist()       # Python floats: same values, faster loops

    @staticmethod
    def _intercept(alpha, y, scores, C):
        as_array = np.asarray
        return float(compiled_intercept(as_array(alpha, dtype=np.float64), y,
                                        as_array(scores, dtype=np.float64), C))

    # refml's own O(n) measures, compiled (the same floats, without Python's loop cost)
    _kkt_violations = staticmethod(kernel(reference.kkt_violations))
    _beta_norm_squared = staticmethod(kernel(reference.beta_norm_squared))
    _objectives = staticmethod(kernel(reference.objectives))

    def _measure(self, alpha, y, scores, C):
        as_array = np.asarray
        return super()._measure(as_array(alpha, dtype=np.float64), as_array(y, dtype=np.float64),
                                as_array(scores, dtype=np.float64), C)

    def _primal_coef(self):
        beta = np.empty(self.n_features_in_)
        _gram.primal_coef(self.dual_coef_, self.support_vectors_, beta)
        return beta

    def _kernel_seconds(self, X, n_values):
        """About the serial seconds of ``n_values`` kernel values a row of X (``_raw_scores``)."""
        n, d = X.shape
        return n * n_values * (d * LANE_TERM_SECONDS + (       # an exponential a value for rbf
            EXP_SECONDS if self.kernel == "rbf" else POWER_SECONDS))

    def _raw_scores(self, X):
        scores = np.empty(X.shape[0])
        coef = self.coef_ if self.kernel == "linear" else np.empty(0)
        if self.kernel == "linear":
            seconds = X.shape[0] * X.shape[1] * LINEAR_SCORE_SECONDS
        else:
            seconds = self._kernel_seconds(X, len(self.dual_coef_))
        run_parallel(_gram.raw_scores_parallel, _gram.raw_scores, seconds / SCORES_FROM,
                     X, _gram.KERNEL_CODES[self.kernel], coef, self.dual_coef_,
                     np.ascontiguousarray(self.support_vectors_), self.gamma_, self.degree,
                     float(self.coef0), scores, unit_seconds=2e-4)
        return scores

    def _decision_values(self, X):
        return self._raw_scores(X) + self.intercept_

    def _binary_codes(self, X):
        return (self._decision_values(X) >= 0.0).astype(np.int64)

    # --- K > 2: refml's one-vs-one on arrays, the same comparisons and float operations ---
    @staticmethod
    def _as_indices(indices):
        return np.asarray(indices, dtype=np.int64)

    def _pair_models(self, X, codes, params):
        """The pairs on Numba's threads, one pair a thread at a time, each pair's SMO serial
        (the launch lock held), when there are threads to spare and rows enough; else
        refml's loop.  Each pair is the same fit either way: only the time changes."""
        pairs = one_vs_one.pairs(len(self.classes_))
        threads = min(_config.numba.get_num_threads(), len(pairs))
        if threads < 2 or X.shape[0] < PAIRS_ON_THREADS_FROM:
            return super()._pair_models(X, codes, params)
        if not _config._LAUNCH.acquire(blocking=False):
            return super()._pair_models(X, codes, params)
        try:
            if not _config.cores_free():
                return super()._pair_models(X, codes, params)
            with ThreadPoolExecutor(max_workers=threads) as pool:
                return list(pool.map(lambda pair: self._fit_pair(X, codes, params, *pair),
                                     pairs))
        finally:
            _config._LAUNCH.release()

    @staticmethod
    def _pair_rows(codes, i, j):
        codes = np.asarray(codes)
        rows = np.flatnonzero((codes == i) | (codes == j))
        return rows, (codes[rows] == j).astype(np.int64)

    def _pair_decisions(self, X):
        """Every pair's f_ij(x) from one kernel value per support vector of the model and row
        (``pair_scores``, as LIBSVM predicts), not one per pair it serves: the pair models'
        own floats.  The linear kernel (each pair its own beta) goes pair by pair, as does a
        model whose pairs' support vectors are not found among its own."""
        layout = None if self.kernel == "linear" else self._pair_layout()
        if layout is None:
            return super()._pair_decisions(X)
        starts, positions, coefficients, SV = layout
        out = np.empty((len(starts) - 1, X.shape[0]))
        seconds = (self._kernel_seconds(X, len(SV))
                   + X.shape[0] * len(positions) * LANE_TERM_SECONDS)
        run_parallel(_pair_scores.pair_scores_parallel, _pair_scores.pair_scores,
                     seconds / SCORES_FROM, X, _gram.KERNEL_CODES[self.kernel], SV,
                     self.gamma_, self.degree, float(self.coef0), starts, positions,
                     coefficients, out, unit_seconds=2e-4)
        return [out[p] + model.intercept_ for p, model in enumerate(self.estimators_)]

    def _pair_layout(self):
        """(starts, positions, coefficients, SV) for ``pair_scores``: each pair's support
        vectors among the model's (refml's ``one_vs_one.pair_support_positions``), in the
        pair's own order; None when they are not the pair model's support vectors."""
        SV = np.ascontiguousarray(self.support_vectors_, dtype=np.float64)
        starts, positions, coefficients = [0], [], []
        places = one_vs_one.pair_support_positions(
            len(self.classes_), np.asarray(self.support_).tolist(),
            np.asarray(self.n_support_).tolist(), np.asarray(self.dual_coef_).tolist())
        for pair_places, model in zip(places, self.estimators_):
            found = np.asarray(pair_places, dtype=np.int64)
            own = np.asarray(model.dual_coef_, dtype=np.float64)
            if own.shape != found.shape or not np.array_equal(SV[found],
                                                               model.support_vectors_):
                return None
            starts.append(starts[-1] + len(found))
            positions.append(found)
            coefficients.append(own)
        return (np.asarray(starts, dtype=np.int64), np.concatenate(positions).astype(np.int64),
                np.concatenate(coefficients), SV)

    def _votes(self, decisions):
        counts = np.zeros((decisions[0].shape[0], len(self.classes_)), dtype=np.int64)
        rows = np.arange(decisions[0].shape[0])
        for (i, j), values in zip(one_vs_one.pairs(len(self.classes_)), decisions):
            np.add.at(counts, (rows, np.where(values >= 0.0, j, i)), 1)
        return counts

    def _ovr_values(self, decisions):
        n_rows, K = decisions[0].shape[0], len(self.classes_)
        values, sums, rows = np.zeros((n_rows, K)), np.zeros((n_rows, K)), np.arange(n_rows)
        for (i, j), pair_values in zip(one_vs_one.pairs(K), decisions):
            sums[:, i] -= pair_values
            sums[:, j] += pair_values
            np.add.at(values, (rows, np.where(pair_values > 0.0, j, i)), 1.0)
        return values + sums / (3.0 * (np.abs(sums) + 1.0))

    @staticmethod
    def _ovo_values(decisions):
        return -np.column_stack(decisions)

    @staticmethod
    def _first_maximum(rows):
        return np.argmax(np.asarray(rows), axis=1).astype(np.int64)


compiled_intercept = kernel(reference.intercept)
