"""k nearest neighbours with Numba kernels: refml's neighbours, exactly, found fast.

``KNeighborsClassifier`` subclasses ``refml.neighbors.KNeighborsClassifier`` and overrides
only the hot methods: the training covariance (a kernel with refml's summation order; the
small d x d Cholesky inverse is refml's own code), the neighbour search, the vote count.

How the search is both fast and exact
-------------------------------------
refml orders neighbours by the squared distance *as it computes it*,
Q(x, z) = sum_j (x_j - z_j)^2 left to right (Mahalanobis: sum_j diff_j (sum_l P_jl diff_l),
P = Sigma^{-1}), then by training index.  Here, for each block of query rows:

1. Approximate pass.  With the training mean m subtracted (x' = x - m, z' = z - m) and, for
   Mahalanobis, the rows multiplied by R, the Cholesky factor of (P + P')/2 = R R'
   ("whitening"), the rows are rounded to float32 (x~, z~) and
   A(x, z) = ||x~||^2 + ||z~||^2 - 2 x~'z~, the norms in float64, the cross products in
   float32 by a kernel that streams training tiles past four queries at a time.
2. A rigorous error bound.  With u = 2^-24 (float32's unit roundoff, far above float64's,
   which the few float64 steps and refml's own rounding fit under),
   gamma_m = m u / (1 - m u), S = 1 (Euclidean) or S = max(||R||_F^2, ||P||_F)
   (Mahalanobis):

       |A(x, z) - Q(x, z)| <= alpha (||x'|| + ||z'||)^2 + beta (1 + ||x'|| + ||z'||)
                           <= epsilon (||x'||^2 + ||z'||^2) + 2 beta,
       alpha = 16 gamma_{2d+6} S,  beta = d 2^-120 (1 + S),  epsilon = 2 alpha + beta.

   Derivation (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., ch. 3
   and Thm 10.3), A and Q each against the exact real Q* = diff' P diff, M = ||x'|| + ||z'||:
   - a dot product in any order errs by at most gamma_d sum|a_j b_j|, so ||x~||^2, ||z~||^2,
     x~'z~ err by gamma_d (||x~|| + ||z~||)^2 together, and the two additions by 2u times
     the same; ||x~|| <= ||R||_2 ||x'|| (1 + gamma_d);
   - whitening x~ = R'x' errs by gamma_d |R'||x'|, which moves A by <= 2 gamma_d ||R||_F^2
     M^2; the computed R has R R' = (P + P')/2 + E, |E| <= gamma_{d+1} |R||R'|, so
     diff'R R'diff is within gamma_{d+1} ||R||_F^2 ||diff||^2 of Q* (and (P + P')/2 has
     the quadratic form of P);
   - centring, and rounding to float32, move each entry by u times itself, which moves
     Q* (or A) by <= 3u ||P||_2 M^2 (or 3u ||R||_2^2 M^2) each time;
   - refml's own Q errs by gamma_{2d+3} |diff|'|P||diff| <= gamma_{2d+3} ||P||_F ||diff||^2
     (Euclidean: gamma_{d+1} ||diff||^2), and ||diff|| <= (1 + u) M.
   Summed, |A - Q| <= (6d + 22) u S M^2 (1 + O(du)) against alpha M^2 ~ (32d + 96) u S M^2:
   a factor of four to spare for the few roundings of the bound and of the comparisons
   themselves.  Underflow (float32 below 2^-126) adds at most 2^-150 per entry and
   product, d times, which beta covers.  A query whose scale
   4 (1 + S)(1 + ||x'||^2 + max ||z'||^2) exceeds 1e30 (where float32 overflow could void
   the argument), or any query when whitening failed, skips the approximate pass: every
   training row is then a candidate.
3. Exact re-check.  Bracket each Q(x, z_i) by lower_i = A_i - e_i and upper_i = A_i + e_i
   (e_i the bound above).  The k rows with the smallest upper_i have Q <= U, the k-th
   smallest upper_i, so the k-th smallest Q is <= U; a row with lower_i > U has Q > U and
   can be neither among the k nearest nor tied with the k-th.  Every row with
   lower_i <= U is a candidate; each gets Q by refml's formula in refml's order (strict
   IEEE, no fastmath), and the k smallest by (Q, training index) are the answer: the same
   floats and the same ties as refml.

One kernel does it all, the groups of four queries shared between the cores by ``prange``:
for each tile of training rows, the cross products, then one pass per query that keeps
the k smallest upper bounds and every row below the running threshold (which only falls);
at the end, the exact pass over those few rows, re-filtered with the final threshold.
"""


import numba
import numpy as np

import refml.neighbors
from refml_fast._config import kernel
from refml_fast.base import FastMixin

FLOAT32_ROUNDOFF = 2.0 ** -24
SCALE_LIMIT = 1e30              # float32 holds 3.4e38: products stay far below it
TILE = 512                      # training rows per tile (32 features: 64 KiB of float32)
GROUP = 4                       # queries sharing one pass over a tile
EUCLIDEAN, MAHALANOBIS = 0, 1


class KNeighborsClassifier(FastMixin, refml.neighbors.KNeighborsClassifier):
    __doc__ = refml.neighbors.KNeighborsClassifier.__doc__

    def _fit(self, X, codes):
        X = np.array(X, dtype=np.float64, order="C")  # a private copy of the training rows
        super()._fit(X, codes)
        self._prepare_search()

    @staticmethod
    def _mean_covariance(X):
        mu = np.zeros(X.shape[1])
        Sigma = np.zeros((X.shape[1], X.shape[1]))
        mean_covariance_kernel(X, mu, Sigma)
        return mu.tolist(), Sigma.tolist()

    def _prepare_search(self):
        """The training side of the approximate pass: the centred (and whitened) rows in
        float32, transposed; their squared norms widened by the error bound; S."""
        self._center = self._fit_X.mean(axis=0)
        self._whitener, self._bound_scale = None, 1.0
        self._precision_array = np.zeros((1, 1))
        if self.metric == "mahalanobis":
            P = np.array(self._precision, dtype=np.float64)
            self._precision_array = P
            try:
                self._whitener = np.linalg.cholesky((P + P.T) / 2.0)
                self._bound_scale = max(float(np.sum(self._whitener ** 2)),
                                        float(np.linalg.norm(P)))
            except np.linalg.LinAlgError:
                self._bound_scale = np.inf  # no approximate pass: every row checked exactly
        T, centred_norms, _ = self._approximate_rows(self._fit_X)
        self._fit_T = np.ascontiguousarray(T.T)
        norms = np.einsum("ij,ij->i", T.astype(np.float64), T.astype(np.float64))
        epsilon, _ = self._bound_constants()
        self._fit_upper = norms + epsilon * centred_norms
        self._fit_lower = norms - epsilon * centred_norms
        self._fit_centred_norm_max = float(centred_norms.max())

    def _approximate_rows(self, X):
        """(x~ in float32, ||x'||^2, whether each row is in float32's safe range)."""
        with np.errstate(all="ignore"):
            centred = X - self._center
            centred_norms = np.einsum("ij,ij->i", centred, centred)
            T = centred if self._whitener is None else centred @ self._whitener
            safe = (1.0 + self._bound_scale) * (1.0 + centred_norms) <= SCALE_LIMIT
            T = np.where(safe[:, None], T, 0.0).astype(np.float32)
        return T, centred_norms, safe

    def _bound_constants(self):
        """(epsilon, beta): |A - Q| <= epsilon (||x'||^2 + ||z'||^2) + 2 beta."""
        d = self.n_features_in_
        m = (2 * d + 6) * FLOAT32_ROUNDOFF
        S = self._bound_scale
        alpha = 16.0 * m / (1.0 - m) * S
        beta = d * 2.0 ** -120 * (1.0 + S)
        return 2.0 * alpha + beta, beta

    def _kneighbors_squared(self, X):
        k = self.n_neighbors
        squared = np.empty((X.shape[0], k), dtype=np.float64)
        indices = np.empty((X.shape[0], k), dtype=np.int64)
        T, centred_norms, _ = self._approximate_rows(X)
        epsilon, beta = self._bound_constants()
        with np.errstate(all="ignore"):
            gap = 2.0 * epsilon * centred_norms + 4.0 * beta  # q_up - q_lo
            scale = 4.0 * (1.0 + self._bound_scale) * (
                1.0 + centred_norms + self._fit_centred_norm_max)
            exhaustive = ~(scale <= SCALE_LIMIT)
        metric = MAHALANOBIS if self.metric == "mahalanobis" else EUCLIDEAN
        n_chunks = min(-(-X.shape[0] // GROUP), 4 * numba.get_num_threads())
        nearest_kernel(T, self._fit_T, self._fit_upper, self._fit_lower, gap, exhaustive,
                       X, self._fit_X, self._precision_array, metric, n_chunks,
                       squared, indices)
        return squared, indices

    def _vote_counts(self, indices):
        counts = np.zeros((indices.shape[0], len(self.classes_)), dtype=np.int64)
        vote_kernel(self._fit_codes, indices, counts)
        return counts

    @staticmethod
    def _distances_from_squared(squared):
        return np.sqrt(squared)

    @staticmethod
    def _winning_codes(counts):
        return np.argmax(counts, axis=1)  # the first maximum: the first class in classes_

    def predict_proba(self, X):
        X = self._validate_predict(X)
        _, indices = self._kneighbors_squared(X)
        return self._vote_counts(indices) / float(self.n_neighbors)  # count / k, as refml


# ----------------------------------------------------------------------------------------
# Kernels.


@kernel
def mean_covariance_kernel(X, mu, Sigma):
    """refml.neighbors.mean_covariance: the same sums in the same order."""
    n, d = X.shape
    for i in range(n):
        for j in range(d):
            mu[j] += X[i, j]
    for j in range(d):
        mu[j] = mu[j] / n
    for j in range(d):
        for l in range(j, d):
            total = 0.0
            for i in range(n):
                total += (X[i, j] - mu[j]) * (X[i, l] - mu[l])
            Sigma[j, l] = total / n
            Sigma[l, j] = Sigma[j, l]


@kernel
def squared_distance(x, z, P, metric, diff):
    """refml's Q(x, z): sum_j (x_j - z_j)^2, or sum_j diff_j (sum_l P_jl diff_l)."""
    d = x.shape[0]
    total = 0.0
    if metric == EUCLIDEAN:
        for j in range(d):
            difference = x[j] - z[j]
            total += difference * difference
        return total
    for j in range(d):
        diff[j] = x[j] - z[j]
    for j in range(d):
        w = 0.0
        for l in range(d):
            w += P[j, l] * diff[l]
        total += diff[j] * w
    return total


@kernel
def insert_sorted(values, ids, count, value, index):
    """Insert (value, index) among the first ``count`` entries, kept sorted by value, after
    every equal value (indices arrive in increasing order: lower indices stay first).
    At most len(values) entries are kept; returns the new count."""
    k = values.shape[0]
    position = count
    while position > 0 and values[position - 1] > value:
        position -= 1
    if position >= k:
        return count
    last = count if count < k else k - 1
    for t in range(last, position, -1):
        values[t] = values[t - 1]
        ids[t] = ids[t - 1]
    values[position] = value
    ids[position] = index
    return count + 1 if count < k else k


@kernel
def cross_tile(T, ZT, rows, start, width, acc):
    """acc[g, t] = sum_j T[rows[g], j] ZT[j, start + t] in float32, j in order."""
    a0, a1, a2, a3 = acc[0], acc[1], acc[2], acc[3]
    for j in range(T.shape[1]):
        x0, x1, x2, x3 = T[rows[0], j], T[rows[1], j], T[rows[2], j], T[rows[3], j]
        z = ZT[j, start:start + width]
        if j == 0:
            for t in range(width):
                a0[t] = x0 * z[t]
                a1[t] = x1 * z[t]
                a2[t] = x2 * z[t]
                a3[t] = x3 * z[t]
        else:
            for t in range(width):
                a0[t] += x0 * z[t]
                a1[t] += x1 * z[t]
                a2[t] += x2 * z[t]
                a3[t] += x3 * z[t]


@kernel
def screen_tile(cross, start, width, z_upper, z_lower, gap, state, best, best_ids,
                candidates, candidate_lower):
    """One query against one tile: keep the k smallest upper bounds, and every row whose
    lower bound is below the running threshold.  state = [count, n_candidates, threshold]."""
    k = best.shape[0]
    count, n_candidates, threshold = int(state[0]), int(state[1]), state[2]
    for t in range(width):
        i = start + t
        twice_cross = 2.0 * cross[t]
        lower = z_lower[i] - twice_cross
        if lower <= threshold:
            candidates[n_candidates] = i
            candidate_lower[n_candidates] = lower
            n_candidates += 1
            upper = z_upper[i] - twice_cross
            if count < k or upper < best[k - 1]:
                count = insert_sorted(best, best_ids, count, upper, i)
                if count == k:
                    threshold = best[k - 1] + gap
    state[0], state[1], state[2] = count, n_candidates, threshold


@kernel
def exact_nearest(x, Z, P, metric, candidates, candidate_lower, n_candidates, threshold,
                  diff, out_squared, out_indices):
    """The k smallest exact Q(x, z_i) over the candidates below the final threshold."""
    k = out_squared.shape[0]
    count = 0
    for t in range(n_candidates):
        if candidate_lower[t] <= threshold:
            i = candidates[t]
            q = squared_distance(x, Z[i], P, metric, diff)
            if count < k or q < out_squared[k - 1]:
                count = insert_sorted(out_squared, out_indices, count, q, i)


@kernel(parallel=True)
def nearest_kernel(T, ZT, z_upper, z_lower, gap, exhaustive, Xq, Z, P, metric, n_chunks,
                   out_squared, out_indices):
    """The k nearest training rows of every query by (exact Q, training index)."""
    n_queries, n_train, k = Xq.shape[0], Z.shape[0], out_squared.shape[1]
    n_groups = (n_queries + GROUP - 1) // GROUP
    for chunk in numba.prange(n_chunks):
        acc = np.empty((GROUP, TILE), dtype=np.float32)
        state = np.empty((GROUP, 3))
        best = np.empty((GROUP, k))
        best_ids = np.empty((GROUP, k), dtype=np.int64)
        candidates = np.empty((GROUP, n_train), dtype=np.int64)
        candidate_lower = np.empty((GROUP, n_train))
        rows = np.empty(GROUP, dtype=np.int64)
        diff = np.empty(Xq.shape[1])
        for group in range(chunk * n_groups // n_chunks, (chunk + 1) * n_groups // n_chunks):
            for g in range(GROUP):
                rows[g] = min(group * GROUP + g, n_queries - 1)
                state[g, 0], state[g, 1], state[g, 2] = 0.0, 0.0, np.inf
            for start in range(0, n_train, TILE):
                width = min(TILE, n_train - start)
                cross_tile(T, ZT, rows, start, width, acc)
                for g in range(GROUP):
                    if not exhaustive[rows[g]]:
                        screen_tile(acc[g], start, width, z_upper, z_lower, gap[rows[g]],
                                    state[g], best[g], best_ids[g], candidates[g],
                                    candidate_lower[g])
            for g in range(GROUP):
                r = group * GROUP + g
                if r >= n_queries:
                    break
                n_candidates, threshold = int(state[g, 1]), state[g, 2]
                if exhaustive[r]:
                    for i in range(n_train):
                        candidates[g, i] = i
                        candidate_lower[g, i] = 0.0
                    n_candidates, threshold = n_train, np.inf
                exact_nearest(Xq[r], Z, P, metric, candidates[g], candidate_lower[g],
                              n_candidates, threshold, diff, out_squared[r], out_indices[r])


@kernel
def vote_kernel(codes, indices, counts):
    """counts[q, c] += 1 for each neighbour of query q with class code c."""
    for q in range(indices.shape[0]):
        for t in range(indices.shape[1]):
            counts[q, codes[indices[q, t]]] += 1
